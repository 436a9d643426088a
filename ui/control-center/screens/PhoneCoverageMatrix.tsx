import { useId, useMemo, useState } from 'react'
import { phoneCoverageMatrix, phoneRuleAfids } from '../../../engine/phone/phone-rule-coverage'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { PhoneRule } from '../../../schemas/generated/phone-rule'
import type { PhoneRulesData } from './PhoneRuleForm'

/**
 * The coverage matrix (CONTROL-CENTER §4 phone rules, §7 gate 5): for one brand, which rule the site
 * shows on every page for every traffic source, by the engine's own choice. Cells where the brand
 * default answers are marked, so pages falling through to it stand out; rules that win nowhere are
 * listed under the table.
 */
export function PhoneCoverageMatrix({
  data,
  rules,
  branch,
  brands,
}: {
  data: PhoneRulesData
  rules: PhoneRule[]
  branch: string
  brands: { id: string; label: string }[]
}) {
  const id = useId()
  const withRules = brands.filter((b) => rules.some((r) => r.brand === b.id))
  const [brand, setBrand] = useState(() =>
    withRules.some((b) => b.id === 'm10') ? 'm10' : (withRules[0]?.id ?? ''),
  )
  const [afid, setAfid] = useState('')
  const afids = useMemo(() => phoneRuleAfids(rules, brand), [rules, brand])
  const matrix = useMemo(
    () => phoneCoverageMatrix(rules, brand, data.pages[brand] ?? [], afid || null),
    [rules, brand, afid, data.pages],
  )
  const pathOf = new Map(data.rules.map((r) => [r.id, r.path]))
  const defaults = new Set(rules.filter((r) => r.brand === brand && !r.match).map((r) => r.id))
  const used = new Set(matrix.rows.flatMap((r) => r.winners))
  // Rules that could apply to these visitors (an afid rule only to its afids) but win no cell.
  const idle = rules
    .filter((r) => r.brand === brand && (!r.match?.afid || r.match.afid.includes(afid)) && !used.has(r.id))
    .map((r) => r.id)
  if (!withRules.length) return null
  return (
    <section className="cc-card fw-pr-matrix" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="cc-h3">
        Coverage: page × traffic source
      </h2>
      <form className="fw-pr-sim-form" onSubmit={(e) => e.preventDefault()}>
        <div className="cc-field">
          <label htmlFor={`${id}-brand`}>Brand</label>
          <select
            id={`${id}-brand`}
            value={brand}
            onChange={(e) => {
              setBrand(e.target.value)
              setAfid('')
            }}
          >
            {withRules.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
              </option>
            ))}
          </select>
        </div>
        <div className="cc-field">
          <label htmlFor={`${id}-afid`}>Visitors with afid</label>
          <select id={`${id}-afid`} value={afid} onChange={(e) => setAfid(e.target.value)}>
            <option value="">(none)</option>
            {afids.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
      </form>
      {matrix.rows.length === 0 ? (
        <p className="muted">No page is served on this brand.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        <section className="fw-pr-matrix-scroll" aria-label="Coverage table" tabIndex={0}>
          <table className="fw-pr-table" data-testid="coverage-matrix">
            <caption className="muted">
              The rule each visitor gets; <span className="fw-pr-cell-default">shaded</span>: the brand
              default.
            </caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                {matrix.sources.map((s) => (
                  <th key={s ?? ''} scope="col">
                    {s === null ? 'no or other utm_source' : s}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {matrix.rows.map((row) => (
                <tr key={row.page} data-page={row.page}>
                  <th scope="row">{row.page}</th>
                  {row.winners.map((w, i) => (
                    <td
                      key={matrix.sources[i] ?? ''}
                      className={w && defaults.has(w) ? 'fw-pr-cell-default' : undefined}
                      data-source={matrix.sources[i] ?? ''}
                    >
                      {w === null ? (
                        <span className="muted">no number</span>
                      ) : (
                        <a href={ccPath('phone-rules', {}, branch, { file: pathOf.get(w) ?? '' })}>{w}</a>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {idle.length > 0 && (
        <p className="fw-pr-warning" role="note" data-testid="matrix-idle">
          ⚠ Wins no cell for {afid ? `visitors with afid ${afid}` : 'visitors without an afid'}:{' '}
          {idle.join(', ')}.
        </p>
      )}
    </section>
  )
}
