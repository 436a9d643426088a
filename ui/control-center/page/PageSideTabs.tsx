import { ccPath } from '../../../engine/render/control-center-routes'
import type { HistoryCommit } from '../../../schemas/generated/cc-answers/branches'
import type { PageEditorData } from '../../../schemas/generated/cc-answers/editor'
import { branchApi } from '../api'
import { Empty, ErrorState, Loading, laTime, shortSha, WithResource } from '../States'
import { useResource } from '../use-resource'

/** The page editor's Experiments tab: the experiments on this page. */
export function PageExperiments({
  branch,
  data,
  error,
}: {
  branch: string
  data: PageEditorData | null
  error: string | null
}) {
  if (error) return <ErrorState message={error} />
  if (!data) return <Loading what="experiments" />
  if (data.experiments.length === 0)
    return (
      <Empty>
        No experiment runs on this page.{' '}
        <a href={ccPath('experiments', {}, branch)}>Start one on the Experiments screen.</a>
      </Empty>
    )
  return (
    <ul className="cc-list">
      {data.experiments.map((x) => (
        <li key={x.id}>
          <a href={ccPath('experiment', { experiment: x.id }, branch)}>{x.id}</a>{' '}
          <span className="cc-badge">{x.status}</span> <span className="muted">{x.description}</span>
        </li>
      ))}
    </ul>
  )
}

/** The page editor's History tab: the page file's commits. */
export function PageHistory({ branch, path }: { branch: string; path: string }) {
  const log = useResource<{ commits: HistoryCommit[] }>(
    branchApi(branch, `/history?path=${encodeURIComponent(path)}`),
  )
  return (
    <WithResource resource={log} what="history">
      {(d) =>
        d.commits.length === 0 ? (
          <Empty>No commits of this page on this branch.</Empty>
        ) : (
          <ol className="cc-list cc-history">
            {d.commits.map((c) => (
              <li key={c.sha}>
                <code>{shortSha(c.sha)}</code> {c.subject}{' '}
                <span className="muted">
                  {c.author.name} · {laTime(c.date)}
                </span>
              </li>
            ))}
          </ol>
        )
      }
    </WithResource>
  )
}
