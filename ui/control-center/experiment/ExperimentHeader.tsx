import type { ExperimentListRow, ExperimentResults } from '../../../schemas/generated/cc-answers/experiments'
import { StatusChip } from '../ExperimentCharts'
import { count, daysBetween } from '../experiment-format'

/** The hypothesis, page, brands, status, phase picker, days running and users of an experiment. */
export function ExperimentHeader({
  row,
  results: r,
  phase,
  onPhase,
}: {
  row: ExperimentListRow
  results: ExperimentResults | null
  phase: number | null
  onPhase: (n: number | null) => void
}) {
  const current = r?.phases.find((p) => p.n === r.phase)
  const days = current ? daysBetween(current.from, current.to) : null
  const users = r ? r.variants.reduce((s, v) => s + v.users, 0) : null
  return (
    <section className="cc-card cc-exp-header" aria-label="About this experiment">
      <p className="cc-exp-hypothesis">{row.description}</p>
      <dl className="cc-exp-facts">
        <div>
          <dt>Page</dt>
          <dd>{row.page ?? '—'}</dd>
        </div>
        <div>
          <dt>Brands</dt>
          <dd>
            <span className="cc-chips">
              {(row.brands ?? []).map((x) => (
                <span key={x} className="cc-chip">
                  {x}
                </span>
              ))}
            </span>
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusChip status={row.status} />
            {row.liveStatus !== row.status && (
              <span className="muted cc-exp-small"> live: {row.liveStatus ?? 'not published'}</span>
            )}
          </dd>
        </div>
        <div className="cc-exp-fact-wide">
          <dt>
            <label htmlFor="cc-exp-phase">Phase</label>
          </dt>
          <dd>
            {r ? (
              <select
                id="cc-exp-phase"
                value={phase ?? r.phase}
                onChange={(e) => {
                  const n = Number(e.target.value)
                  onPhase(n === r.phases.length ? null : n)
                }}
              >
                {r.phases.map((p) => (
                  <option key={p.n} value={p.n}>
                    {p.n} · {p.status}
                    {p.from ? ` · from ${p.from.slice(0, 10)}` : ''}
                    {p.n === r.phases.length ? ' (current)' : ''}
                  </option>
                ))}
              </select>
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>Days running</dt>
          <dd>{days === null ? '—' : days}</dd>
        </div>
        <div>
          <dt>Total users</dt>
          <dd data-testid="exp-total-users">{users === null ? '—' : count(users)}</dd>
        </div>
      </dl>
    </section>
  )
}
