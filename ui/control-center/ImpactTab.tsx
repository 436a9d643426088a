/**
 * The branch's Impact tab (CONTROL-CENTER §7 items 2 and 3): what publishing it now would change, in
 * words — the path diff of each changed funnel and what each changed shared step reaches, with last
 * week's visits per page.
 */

import type {
  BranchImpact,
  FunnelPathDiff,
  PathEdge,
  StepImpact,
} from '../../schemas/generated/cc-answers/gates'
import { branchApi } from './api'
import { Empty, ScrollRegion, WithResource } from './States'
import { useResource } from './use-resource'

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`

function answerWords(answer: string): string {
  if (answer === 'answer') return 'answered'
  if (answer === 'no') return 'answered no'
  if (answer === 'skip') return 'skipped'
  if (answer === 'any answer') return 'any answer'
  const [field, value] = answer.split('=')
  return `${field} is ${value}`
}

function actionWords(action: string): string {
  if (action === 'next') return 'next step'
  if (action === 'stay') return 'stays'
  if (action === 'go-to-step') return 'go to step'
  return action
}

/** "medicare, answered no → contact (go to step)". */
export const edgeWords = (e: PathEdge) =>
  `${e.from}, ${answerWords(e.answer)} → ${e.to} (${actionWords(e.action)})`

type Visits = BranchImpact['visits']

const visitsOf = (visits: Visits, page: string, brands?: string[]) =>
  visits.pages
    .filter((v) => v.page === page && (!brands || (v.brand !== null && brands.includes(v.brand))))
    .reduce((n, v) => n + v.visits, 0)

export function ImpactTab({ branch, revision }: { branch: string; revision: number }) {
  const res = useResource<BranchImpact>(branchApi(branch, '/impact'), revision)
  return (
    <WithResource resource={res} what="impact">
      {(data) =>
        data.conflicts.length ? (
          <Empty>Live changed the same fields as this branch: update it from live to see its impact.</Empty>
        ) : !data.impact ? (
          <Empty>The branch has errors that stop it from building: see Checks.</Empty>
        ) : data.impact.paths.funnels.length === 0 && data.impact.steps.length === 0 ? (
          <Empty>Publishing this branch changes no funnel and no shared step.</Empty>
        ) : (
          <div className="stack" data-testid="impact">
            {!data.ok && (
              <p className="cc-state cc-error" role="status">
                {plural(data.errors.length, 'check')} fail: publishing is refused until they are fixed (see
                Checks).
              </p>
            )}
            {data.impact.steps.map((s) => (
              <StepSection key={s.step} impact={s} visits={data.visits} />
            ))}
            {data.impact.paths.funnels.filter(changesPaths).map((f) => (
              <FunnelSection key={f.funnel} diff={f} />
            ))}
            <Unchanged funnels={data.impact.paths.funnels.filter((f) => !changesPaths(f))} />
          </div>
        )
      }
    </WithResource>
  )
}

function StepSection({ impact, visits }: { impact: StepImpact; visits: Visits }) {
  const total = impact.pages.reduce((n, p) => n + visitsOf(visits, p.page, p.brands), 0)
  const pageCount = new Set(impact.pages.map((p) => p.page)).size
  return (
    <section aria-labelledby={`impact-step-${impact.step}`} data-testid={`impact-step-${impact.step}`}>
      <h2 className="cc-h3" id={`impact-step-${impact.step}`}>
        Shared step <code>{impact.step}</code>: {impact.summary}
      </h2>
      <p>
        {plural(pageCount, 'page')} on {plural(impact.brands.length, 'brand')}, about {plural(total, 'visit')}{' '}
        in the last {visits.days} days. Changed: {impact.changedFields.join(', ')}.
      </p>
      {impact.shadowed.length > 0 && (
        <p className="muted">
          Not affected (their overrides already replace these fields): {impact.shadowed.join(', ')}.
        </p>
      )}
      {impact.pages.length === 0 ? (
        <Empty>No page runs a funnel this change reaches.</Empty>
      ) : (
        <ScrollRegion label={`Pages reached by step ${impact.step}`}>
          <table className="cc-table">
            <caption className="cc-visually-hidden">
              Pages reached by the change of step {impact.step}
            </caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Funnel</th>
                <th scope="col">Brands</th>
                <th scope="col">Visits ({visits.days} days)</th>
              </tr>
            </thead>
            <tbody>
              {impact.pages.map((p) => (
                <tr key={`${p.page} ${p.funnel} ${p.experiment?.variant ?? ''}`}>
                  <td>
                    {p.page} <span className="muted">{p.path}</span>
                  </td>
                  <td>
                    {p.funnel}
                    {p.experiment && (
                      <span className="muted">
                        {' '}
                        (experiment {p.experiment.id}, variant {p.experiment.variant})
                      </span>
                    )}
                  </td>
                  <td>{p.brands.join(', ')}</td>
                  <td>{visitsOf(visits, p.page, p.brands).toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {impact.experiments.length > 0 && (
        <ul>
          {impact.experiments.map((e) => (
            <li key={e.id}>
              Experiment {e.id} on {e.page} ({e.status}):{' '}
              {e.variants.map((v) => `${v.id} ${v.weight}%${v.form ? ` runs ${v.form}` : ''}`).join(', ')}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** Whether a changed funnel's paths changed (a new text changes the funnel, not where it goes). */
const changesPaths = (d: FunnelPathDiff) =>
  d.status === 'added' ||
  !!d.incomplete ||
  d.edgesAdded.length + d.edgesRemoved.length + d.endsChanged.length > 0 ||
  d.newUnreachable.length + d.newDeadEnds.length > 0

function Unchanged({ funnels }: { funnels: FunnelPathDiff[] }) {
  if (funnels.length === 0) return null
  return (
    <p className="muted" data-testid="impact-paths-unchanged">
      {plural(funnels.length, 'changed funnel')} keep every path as it was:{' '}
      {funnels.map((f) => f.funnel).join(', ')}.
    </p>
  )
}

function FunnelSection({ diff }: { diff: FunnelPathDiff }) {
  const nothing = !changesPaths(diff)
  return (
    <section aria-labelledby={`impact-funnel-${diff.funnel}`} data-testid={`impact-funnel-${diff.funnel}`}>
      <h2 className="cc-h3" id={`impact-funnel-${diff.funnel}`}>
        Funnel <code>{diff.funnel}</code>
        {diff.status === 'added' ? ' (new)' : ''}: paths
      </h2>
      {diff.incomplete && <p className="cc-state cc-error">Incomplete: {diff.incomplete}.</p>}
      {nothing && !diff.incomplete && (
        <p className="muted">No path changes: every move goes where it went.</p>
      )}
      {diff.edgesAdded.length > 0 && (
        <>
          <h3 className="cc-h3">Edges added</h3>
          <ul data-testid="edges-added">
            {diff.edgesAdded.map((e) => (
              <li key={edgeWords(e)}>
                <span aria-hidden="true">+ </span>
                {edgeWords(e)}
              </li>
            ))}
          </ul>
        </>
      )}
      {diff.edgesRemoved.length > 0 && (
        <>
          <h3 className="cc-h3">Edges removed</h3>
          <ul data-testid="edges-removed">
            {diff.edgesRemoved.map((e) => (
              <li key={edgeWords(e)}>
                <span aria-hidden="true">− </span>
                {edgeWords(e)}
              </li>
            ))}
          </ul>
        </>
      )}
      {diff.endsChanged.length > 0 && (
        <>
          <h3 className="cc-h3">Paths whose end changed</h3>
          <ul>
            {diff.endsChanged.map((c) => (
              <li key={`${c.path} ${c.before} ${c.after}`}>
                {c.path} used to end at {c.before.replace(/^the /, '')}, now ends at{' '}
                {c.after.replace(/^the /, '')}
              </li>
            ))}
          </ul>
        </>
      )}
      {diff.newUnreachable.length > 0 && (
        <p>Steps no visitor reaches any more: {diff.newUnreachable.join(', ')}.</p>
      )}
      {diff.newDeadEnds.length > 0 && (
        <p>New dead ends (visitors stay there): {diff.newDeadEnds.join(', ')}.</p>
      )}
    </section>
  )
}
