import type { ExperimentResults, VariantResult } from '../../../schemas/generated/cc-answers/experiments'
import { LiftBar } from '../ExperimentCharts'
import { count, pct, pValue, weightsHealth } from '../experiment-format'
import { laTime, ScrollRegion } from '../States'
import { chanceClass, DrillDown } from './DrillDown'
import { DailyExposures, StepReach } from './ExperimentTrends'

/** Health strip, the results table by variant, daily exposures, step reach and the drill-down. */
export function Results({
  r,
  refreshing,
  onRefresh,
}: {
  r: ExperimentResults
  refreshing: boolean
  onRefresh: () => void
}) {
  const total = r.variants.reduce((s, v) => s + v.users, 0)
  const exposed = total + r.multipleExposures + r.bots
  const srmBad = r.srm.mismatch
  const scale = Math.max(
    0.1,
    ...r.variants.flatMap((v) => (v.vsControl ? v.vsControl.interval.map(Math.abs) : [])),
  )
  return (
    <div className="stack">
      {srmBad && (
        <div className="cc-banner cc-banner-error" role="alert" data-testid="srm-banner">
          <strong>Sample ratio mismatch ({pValue(r.srm.pValue)}, below 0.001).</strong> The split of users is
          not what the weights promise ({r.variants.map((v) => `${v.id} ${v.weight}%`).join(' / ')}), so
          something sends or counts visitors unevenly. Do not trust these results until the cause is found.
        </div>
      )}
      <ul className="cc-exp-health" aria-label="Health">
        <li className={srmBad ? 'cc-exp-bad' : 'cc-exp-good'} data-testid="health-srm">
          <span className="cc-exp-health-k">Sample ratio</span>
          <span className="cc-exp-health-v">{srmBad ? 'Mismatch' : 'OK'}</span>
          <span className="muted">{pValue(r.srm.pValue)}</span>
        </li>
        <li className={r.multipleExposures > 0 ? 'cc-exp-warn' : ''} data-testid="health-multiple">
          <span className="cc-exp-health-k">Multiple exposures</span>
          <span className="cc-exp-health-v">{count(r.multipleExposures)}</span>
          <span className="muted">{exposed ? pct(r.multipleExposures / exposed) : '0.0%'} excluded</span>
        </li>
        <li data-testid="health-bots">
          <span className="cc-exp-health-k">Bots excluded</span>
          <span className="cc-exp-health-v">{count(r.bots)}</span>
          <span className="muted">{exposed ? pct(r.bots / exposed) : '0.0%'}</span>
        </li>
        <WeightsHealth r={r} />
        <li>
          <span className="cc-exp-health-k">Data as of</span>
          <span className="cc-exp-health-v cc-exp-small">{laTime(r.computedAt)}</span>
          <button type="button" className="cc-exp-refresh" onClick={onRefresh} disabled={refreshing}>
            {refreshing ? 'Refreshing…' : 'Refresh now'}
          </button>
        </li>
      </ul>
      {!r.enoughData && (
        <p className="cc-banner" data-testid="not-enough-data">
          <strong>Not enough data</strong> — no verdict until every variant has at least 100 users and 10
          leads.
        </p>
      )}
      <ScrollRegion label="Results by variant">
        <table
          className={`cc-table cc-cards cc-exp-results${srmBad ? ' cc-exp-greyed' : ''}`}
          data-testid="results-table"
        >
          <thead>
            <tr>
              <th scope="col">Variant</th>
              <th scope="col" className="cc-num">
                Users
              </th>
              <th scope="col" className="cc-num">
                Leads
              </th>
              <th scope="col" className="cc-num">
                Conversion
              </th>
              <th scope="col">Lift vs control (95 % interval)</th>
              <th scope="col" className="cc-num">
                {r.variants.length > 2 ? 'Chance to be best' : 'Chance to win'}
              </th>
              <th scope="col" className="cc-num">
                Risk
              </th>
            </tr>
          </thead>
          <tbody>
            {r.variants.map((v, i) => (
              <VariantRow key={v.id} v={v} control={i === 0} many={r.variants.length > 2} scale={scale} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="cc-exp-charts">
        <DailyExposures daily={r.daily} variants={r.variants.map((v) => v.id)} />
        <StepReach steps={r.steps} variants={r.variants} />
      </div>
      <DrillDown id={r.experiment.id} phase={r.phase} />
    </div>
  )
}

function VariantRow({
  v,
  control,
  many,
  scale,
}: {
  v: VariantResult
  control: boolean
  many: boolean
  scale: number
}) {
  const c = v.vsControl
  const chance = many ? v.chanceToBeBest : c?.chanceToWin
  return (
    <tr data-variant={v.id}>
      <th scope="row">
        {v.id}
        {control && <span className="cc-chip">baseline</span>}
        <div className="muted cc-exp-small">weight {v.weight}%</div>
      </th>
      <td className="cc-num" data-label="Users">
        {count(v.users)}
      </td>
      <td className="cc-num" data-label="Leads">
        {count(v.leads)}
      </td>
      <td className="cc-num" data-label="Conversion" data-testid="rate">
        {pct(v.rate)}
      </td>
      <td data-label="Lift vs control">
        {control ? (
          <span className="muted">—</span>
        ) : c ? (
          <div className="cc-exp-lift">
            <span data-testid="lift">{pct(c.lift, 1, true)}</span>
            <LiftBar lift={c.lift} interval={c.interval} scale={scale} />
            <span className="muted cc-exp-small">
              {pct(c.interval[0], 1, true)} to {pct(c.interval[1], 1, true)}
            </span>
          </div>
        ) : (
          <span className="muted">Not enough data</span>
        )}
      </td>
      <td
        className={`cc-num ${chanceClass(chance)}`}
        data-label={many ? 'Chance to be best' : 'Chance to win'}
        data-testid="chance"
      >
        {control && !many ? (
          <span className="muted">—</span>
        ) : chance == null ? (
          <span className="muted">Not enough data</span>
        ) : (
          pct(chance)
        )}
      </td>
      <td className="cc-num" data-label="Risk">
        {c ? pct(c.risk, 2) : <span className="muted">—</span>}
      </td>
    </tr>
  )
}

/** "Weights changed in this phase" (experiment-format.ts weightsHealth). */
function WeightsHealth({ r }: { r: ExperimentResults }) {
  const w = weightsHealth(r.phases, r.phase)
  if (!w) return null
  return (
    <li className={w.changed ? 'cc-exp-warn' : ''} data-testid="health-weights">
      <span className="cc-exp-health-k">Weights</span>
      <span className="cc-exp-health-v">{w.value}</span>
      <span className="muted">{w.detail}</span>
    </li>
  )
}
