import { ccPath } from '../../../engine/render/control-center-routes'
import type { Run, RunStatus } from '../../../schemas/generated/cc-answers/runs'
import { useCc } from '../cc-context'
import { laTime } from '../States'

const STATUS_LABEL: Record<RunStatus, string> = {
  queued: 'queued',
  running: 'running',
  validating: 'validating',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
}

/** A run's status as a coloured chip (the word is always there: colour is never the only cue). */
export function StatusChip({ status }: { status: RunStatus }) {
  return (
    <span className={`cc-chip cf-status cf-status-${status}`} data-testid="run-status">
      {STATUS_LABEL[status] ?? status}
    </span>
  )
}

/** "1 min 05 s", "12.3 s", or "—". */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 100) return '< 0.1 s'
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}

/** From start to finish, or to now while it runs. */
export function runDuration(run: Run, now = Date.now()): number | null {
  if (!run.startedAt) return null
  const end = run.finishedAt ? Date.parse(run.finishedAt) : now
  return end - Date.parse(run.startedAt)
}

export const tokens = (run: Run) =>
  run.promptTokens === null && run.completionTokens === null
    ? '—'
    : `${run.promptTokens ?? 0} + ${run.completionTokens ?? 0}`

export function useWho(): (id: string) => string {
  const { route } = useCc()
  return (id) => (id === route.user?.id ? `${route.user.name} (you)` : id)
}

export const runUrl = (run: Pick<Run, 'id' | 'branch'>) =>
  ccPath('content-factory-run', { run: run.id }, run.branch)

export const articleUrl = (branch: string, article: string) => ccPath('articles', {}, branch, { article })

/** The runs as a table (the overview's latest runs and the runs screen). */
export function RunTable({
  runs,
  label,
  compact = false,
}: {
  runs: Run[]
  label: string
  compact?: boolean
}) {
  const who = useWho()
  return (
    <div className="cc-table-wrap cf-runs" data-testid="run-table">
      <table className="cc-table">
        <caption className="cc-visually-hidden">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col">Status</th>
            <th scope="col">Author</th>
            {!compact && <th scope="col">Attempt</th>}
            {!compact && <th scope="col">Started by</th>}
            <th scope="col">Created</th>
            {!compact && <th scope="col">Duration</th>}
            <th scope="col">Article</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td data-label="Topic">
                <span>
                  <a href={runUrl(r)}>{r.brief.topic}</a>
                  <span className="muted cf-run-id"> #{r.id}</span>
                </span>
              </td>
              <td data-label="Status">
                <StatusChip status={r.status} />
              </td>
              <td data-label="Author">{r.authorId}</td>
              {!compact && <td data-label="Attempt">{r.attempt || '—'}</td>}
              {!compact && <td data-label="Started by">{who(r.createdBy)}</td>}
              <td data-label="Created">{laTime(r.createdAt)}</td>
              {!compact && <td data-label="Duration">{formatDuration(runDuration(r))}</td>}
              <td data-label="Article">
                {r.articleId ? <a href={articleUrl(r.branch, r.articleId)}>{r.articleId}</a> : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
