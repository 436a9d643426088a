import { useState } from 'react'
import type {
  ExperimentDimension,
  ExperimentResults,
} from '../../../schemas/generated/cc-answers/experiments'
import { count, pct, pValue } from '../experiment-format'
import { Empty, ErrorState, Loading, ScrollRegion } from '../States'
import { useResource } from '../use-resource'

const DIMENSIONS: { id: ExperimentDimension; label: string }[] = [
  { id: 'brand', label: 'Brand' },
  { id: 'paid', label: 'Paid or organic' },
  { id: 'utm_source', label: 'utm_source' },
]

/** A chance's colour: a winner at 95 %, a loser at 5 %. */
export function chanceClass(c: number | null | undefined) {
  return c == null ? '' : c >= 0.95 ? 'cc-exp-win' : c <= 0.05 ? 'cc-exp-lose' : ''
}

/** The same statistics per brand, paid/organic or utm_source (top 10 + other). */
export function DrillDown({ id, phase }: { id: string; phase: number }) {
  const [dimension, setDimension] = useState<ExperimentDimension | ''>('')
  const data = useResource<ExperimentResults>(
    dimension
      ? `/api/cc/experiments/${encodeURIComponent(id)}/results?phase=${phase}&dimension=${dimension}`
      : null,
  )
  const segments = data.data?.segments ?? []
  const ids = data.data?.variants.map((v) => v.id) ?? []
  return (
    <section className="cc-card stack" aria-labelledby="cc-exp-drill">
      <div className="cc-row cc-row-between">
        <h2 id="cc-exp-drill" className="cc-h3">
          Drill down
        </h2>
        <label className="cc-field cc-inline">
          <span>Split by</span>
          <select
            value={dimension}
            onChange={(e) => setDimension(e.target.value as ExperimentDimension | '')}
          >
            <option value="">Choose a dimension</option>
            {DIMENSIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {dimension && (
        <p className="muted cc-exp-small">
          Each segment is another comparison: with ten segments, one may look like a winner by chance. Treat a
          segment’s result as an idea for a new test, not a decision.
        </p>
      )}
      {!dimension ? null : data.error ? (
        <ErrorState message={data.error} retry={data.reload} />
      ) : !data.data ? (
        <Loading what="segments" />
      ) : segments.length === 0 ? (
        <Empty>No users in this phase yet.</Empty>
      ) : (
        <ScrollRegion label={`Results by ${dimension}`}>
          <table className="cc-table cc-cards" data-testid="segments-table">
            <thead>
              <tr>
                <th scope="col">{DIMENSIONS.find((d) => d.id === dimension)?.label}</th>
                <th scope="col" className="cc-num">
                  Users
                </th>
                {ids.map((v) => (
                  <th key={v} scope="col" className="cc-num">
                    {v}
                  </th>
                ))}
                <th scope="col">Lift</th>
                <th scope="col" className="cc-num">
                  Chance to win
                </th>
                <th scope="col">SRM</th>
              </tr>
            </thead>
            <tbody>
              {segments.map((s) => {
                const t = s.variants[1]?.vsControl
                return (
                  <tr key={s.other ? '(other)' : s.segment}>
                    <th scope="row">{s.other ? <em>all other values</em> : s.segment}</th>
                    <td className="cc-num" data-label="Users">
                      {count(s.users)}
                    </td>
                    {s.variants.map((v) => (
                      <td key={v.id} className="cc-num" data-label={v.id}>
                        {pct(v.rate)}{' '}
                        <span className="muted cc-exp-small">
                          ({count(v.leads)}/{count(v.users)})
                        </span>
                      </td>
                    ))}
                    <td data-label="Lift">
                      {t ? pct(t.lift, 1, true) : <span className="muted">Not enough data</span>}
                    </td>
                    <td className={`cc-num ${chanceClass(t?.chanceToWin)}`} data-label="Chance to win">
                      {t ? pct(t.chanceToWin) : '—'}
                    </td>
                    <td data-label="SRM">
                      {s.srm.mismatch ? (
                        <span className="cc-chip cc-chip-error">{pValue(s.srm.pValue)}</span>
                      ) : (
                        <span className="muted">OK</span>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  )
}
