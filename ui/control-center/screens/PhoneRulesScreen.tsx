import { useMemo, useState } from 'react'
import { BUSINESS_TIME_ZONE } from '../../../engine/constants'
import { isWithinBusinessHours } from '../../../engine/phone/business-hours'
import { formatPhoneDashed } from '../../../engine/phone/phone-format'
import {
  type FallThrough,
  nextBusinessOpening,
  phoneRuleConditions,
  phoneRulesInOrder,
  type ShadowedRule,
  shadowedMessage,
  whichPhoneRule,
} from '../../../engine/phone/phone-rule-coverage'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { PhoneRule } from '../../../schemas/generated/phone-rule'
import { branchApi } from '../api'
import { useCc } from '../cc-context'
import { Empty, WithResource } from '../States'
import { useResource } from '../use-resource'
import { PhoneCoverageMatrix } from './PhoneCoverageMatrix'
import { PhoneRuleDetail, type PhoneRuleRow, type PhoneRulesData } from './PhoneRuleForm'
import '../phone-rules.css'

const CRITERION_WORDS = { brand: 'brand', pages: 'page', utmSource: 'utm_source', afid: 'afid' } as const

/** "utm_source is facebook, fb or ig": a rule's `match` in words. */
function conditionWords(rule: PhoneRule): string[] {
  const m = rule.match
  if (!m) return ['every visitor no other rule claims (the brand default)']
  const list = (v: string[]) => (v.length === 1 ? v[0] : `${v.slice(0, -1).join(', ')} or ${v[v.length - 1]}`)
  const out: string[] = []
  if (m.pages) out.push(`page is ${list(m.pages)}`)
  if (m.utmSource) out.push(`utm_source is ${list(m.utmSource)}`)
  if (m.afid) out.push(`afid is ${list(m.afid)}`)
  return out
}

/** A brand's name without placeholders (`{product}` is filled per page): the id when nothing is left. */
const displayName = (b: { id: string; name: string }) => b.name.replace(/\{[^}]*\}/g, '').trim() || b.id

const isRule = (r: PhoneRule | null): r is PhoneRule =>
  !!r && typeof r.id === 'string' && typeof r.brand === 'string'

/**
 * `/phone-rules?branch=B`: the rules grouped by brand in the order they are tried, with their numbers,
 * state and problems, warnings for rules that can never win, the "Which rule wins?" simulator (the
 * site's own engine functions, in the browser, on this branch's rules with my drafts), the page × source
 * coverage matrix, and the rule form (`&file=`).
 */
export default function PhoneRulesScreen() {
  const { branch: b, revision } = useCc()
  const branch = b as string
  const file = new URLSearchParams(location.search).get('file')
  const data = useResource<PhoneRulesData>(branchApi(branch, '/phone-rules'), revision)
  return (
    <div className="cc-page fw-phone-rules">
      <h1>Phone rules</h1>
      {file && <PhoneRuleDetail key={`${branch}:${file}`} branch={branch} path={file} data={data.data} />}
      <WithResource resource={data} what="phone rules">
        {(d) =>
          d.rules.length === 0 ? (
            <Empty>This branch has no phone rules.</Empty>
          ) : (
            <div className="fw-pr-layout">
              <Simulator data={d} />
              <RuleGroups data={d} branch={branch} selected={file} />
              <PhoneCoverageMatrix
                data={d}
                rules={d.rules.map((r) => r.rule).filter(isRule)}
                branch={branch}
                brands={d.brands
                  .filter((b) => b.public)
                  .map((b) => ({ id: b.id, label: `${displayName(b)} (${b.id})` }))}
              />
            </div>
          )
        }
      </WithResource>
    </div>
  )
}

function RuleGroups({
  data,
  branch,
  selected,
}: {
  data: PhoneRulesData
  branch: string
  selected: string | null
}) {
  const brandName = new Map(data.brands.map((b) => [b.id, displayName(b)]))
  const shadowed = new Map(data.coverage.shadowed.map((s) => [s.id, s]))
  const fallThrough = new Map(data.coverage.fallThrough.map((f) => [f.brand, f]))
  const groups = new Map<string, PhoneRuleRow[]>()
  const unreadable: PhoneRuleRow[] = []
  for (const row of data.rules) {
    if (!isRule(row.rule)) unreadable.push(row)
    else groups.set(row.rule.brand, [...(groups.get(row.rule.brand) ?? []), row])
  }
  return (
    <section aria-labelledby="fw-pr-rules" className="fw-pr-rules">
      <h2 id="fw-pr-rules" className="cc-h3">
        Rules by brand, in the order they are tried
      </h2>
      {[...groups.keys()].sort().map((brand) => {
        const rows = groups.get(brand)!
        const ordered = phoneRulesInOrder(rows.map((r) => r.rule!)).map(
          (r) => rows.find((x) => x.rule === r)!,
        )
        return (
          <section key={brand} className="cc-card fw-pr-brand" aria-labelledby={`fw-pr-brand-${brand}`}>
            <h3 id={`fw-pr-brand-${brand}`} className="fw-pr-brand-name">
              {brandName.get(brand) ?? brand} <code>{brand}</code>
            </h3>
            <ol className="fw-pr-list">
              {ordered.map((row) => (
                <RuleItem
                  key={row.path}
                  row={row}
                  branch={branch}
                  selected={row.path === selected}
                  shadowed={shadowed.get(row.id)}
                />
              ))}
            </ol>
            {fallThrough.has(brand) && <FallThroughNote f={fallThrough.get(brand)!} />}
          </section>
        )
      })}
      {unreadable.length > 0 && (
        <section className="cc-card" aria-label="Unreadable rules">
          <h3 className="fw-pr-brand-name">Not readable as a rule</h3>
          <ul className="fw-pr-list">
            {unreadable.map((row) => (
              <li key={row.path} className="fw-pr-rule">
                <a href={ccPath('phone-rules', {}, branch, { file: row.path })}>{row.id}</a>{' '}
                <span className="cc-chip cc-chip-error">not a JSON object</span> Fix it in the Source tab.
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  )
}

function RuleItem({
  row,
  branch,
  selected,
  shadowed,
}: {
  row: PhoneRuleRow
  branch: string
  selected: boolean
  shadowed?: ShadowedRule
}) {
  const rule = row.rule!
  return (
    <li className="fw-pr-rule" aria-current={selected ? 'true' : undefined} data-rule={row.id}>
      <div className="fw-pr-rule-head">
        <a href={ccPath('phone-rules', {}, branch, { file: row.path })} className="fw-pr-rule-id">
          {row.id}
        </a>
        <span className="fw-pr-number">{formatPhoneDashed(String(rule.defaultNumber ?? ''))}</span>
        {row.state !== 'unchanged' && <span className="cc-chip">{row.state}</span>}
        {row.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
        {row.problems > 0 && (
          <span className="cc-chip cc-chip-error">
            {row.problems} problem{row.problems === 1 ? '' : 's'}
          </span>
        )}
        {shadowed && <span className="cc-chip cc-chip-warn">never wins</span>}
      </div>
      {rule.description && <p className="fw-pr-desc">{rule.description}</p>}
      <p className="fw-pr-when">
        <span className="muted">When </span>
        {conditionWords(rule).join(' and ')}
      </p>
      <p className="fw-pr-meta muted">
        placement <code>{String(rule.placementId ?? '')}</code> · afid <code>{String(rule.afid ?? '')}</code>
      </p>
      {shadowed && (
        <p className="fw-pr-warning" role="note" data-testid="shadow-warning">
          ⚠ {shadowedMessage(shadowed)}.
        </p>
      )}
      {row.errors.length > 0 && (
        <ul className="fw-pr-errors">
          {row.errors.map((e) => (
            <li key={`${e.pointer}:${e.message}`}>
              <code>{e.pointer || '/'}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

function FallThroughNote({ f }: { f: FallThrough }) {
  return (
    <details className="fw-pr-fall">
      <summary>
        {f.pages.length} page{f.pages.length === 1 ? '' : 's'} fall through to <code>{f.defaultRule}</code>
      </summary>
      <p>
        Only {f.specificPages.join(', ')} {f.specificPages.length === 1 ? 'has' : 'have'} a page-specific
        rule; these pages get the default unless a source rule claims the visitor:
      </p>
      <p className="fw-pr-pages">{f.pages.join(', ')}</p>
    </details>
  )
}

const laFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: BUSINESS_TIME_ZONE,
  weekday: 'long',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
})

/** The "Which rule wins?" simulator: engine/phone's functions on this branch's rules. */
function Simulator({ data }: { data: PhoneRulesData }) {
  const rules = useMemo(() => data.rules.map((r) => r.rule).filter(isRule), [data])
  const brands = data.brands.filter((b) => b.public)
  const [brand, setBrand] = useState(() =>
    brands.some((b) => b.id === 'm10') ? 'm10' : (brands[0]?.id ?? ''),
  )
  const [page, setPage] = useState('')
  const [utmSource, setUtmSource] = useState('')
  const [afid, setAfid] = useState('')
  const [at, setAt] = useState('')
  const pages = data.pages[brand] ?? []
  const facts = {
    brandId: brand,
    pageKey: page || null,
    utmSource: utmSource.trim() || null,
    afid: afid.trim() || null,
  }
  const winner = brand ? whichPhoneRule(rules, facts) : null
  const losers = winner
    ? phoneRulesInOrder(rules)
        .filter((r) => r.id !== winner.id && phoneRuleConditions(r, facts).every((c) => c.met))
        .map((r) => r.id)
    : []
  const when = at ? new Date(at) : new Date()
  const validWhen = !Number.isNaN(when.getTime())
  const open = validWhen && isWithinBusinessHours(when)
  const next = validWhen && !open ? nextBusinessOpening(when) : null
  return (
    <section className="cc-card fw-pr-sim" aria-labelledby="fw-pr-sim-title">
      <h2 id="fw-pr-sim-title" className="cc-h3">
        Which rule wins?
      </h2>
      <form className="fw-pr-sim-form" onSubmit={(e) => e.preventDefault()}>
        <div className="cc-field fw-pr-sim-wide">
          <label htmlFor="fw-pr-sim-brand">Brand</label>
          <select
            id="fw-pr-sim-brand"
            value={brand}
            onChange={(e) => {
              setBrand(e.target.value)
              setPage('')
            }}
          >
            {brands.map((b) => (
              <option key={b.id} value={b.id}>
                {displayName(b)} ({b.id})
              </option>
            ))}
          </select>
        </div>
        <div className="cc-field fw-pr-sim-wide">
          <label htmlFor="fw-pr-sim-page">Page</label>
          <select id="fw-pr-sim-page" value={page} onChange={(e) => setPage(e.target.value)}>
            <option value="">(any other page)</option>
            {pages.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="cc-field">
          <label htmlFor="fw-pr-sim-utm">utm_source</label>
          <input
            id="fw-pr-sim-utm"
            value={utmSource}
            onChange={(e) => setUtmSource(e.target.value)}
            placeholder="facebook"
          />
        </div>
        <div className="cc-field">
          <label htmlFor="fw-pr-sim-afid">afid</label>
          <input
            id="fw-pr-sim-afid"
            value={afid}
            onChange={(e) => setAfid(e.target.value)}
            inputMode="numeric"
          />
        </div>
        <div className="cc-field fw-pr-sim-wide">
          <label htmlFor="fw-pr-sim-at">At (your time; empty: now)</label>
          <input id="fw-pr-sim-at" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} />
        </div>
      </form>
      <output className="fw-pr-answer" aria-live="polite" data-testid="sim-answer">
        {!brand ? (
          <p>Pick a brand.</p>
        ) : !winner ? (
          <p>No rule applies: brand {brand} shows no phone number.</p>
        ) : (
          <>
            <p className="fw-pr-winner">
              <span className="muted">Wins: </span>
              <strong data-testid="sim-rule">{winner.id}</strong>{' '}
              <span className="fw-pr-number" data-testid="sim-number">
                {formatPhoneDashed(winner.defaultNumber)}
              </span>
            </p>
            <p>
              <span className="muted">Why: </span>
              {winner.match
                ? phoneRuleConditions(winner, facts)
                    .filter((c) => c.criterion !== 'brand')
                    .map(
                      (c) =>
                        `${CRITERION_WORDS[c.criterion]} ${c.criterion === 'utmSource' ? facts.utmSource : c.criterion === 'pages' ? facts.pageKey : facts.afid} matches`,
                    )
                    .join(', ')
                : 'no more specific rule of the brand matches, so the default applies'}
              .
            </p>
            {losers.length > 0 && (
              <p>
                <span className="muted">Also matched, less specific: </span>
                {losers.join(', ')}
              </p>
            )}
            <p data-testid="sim-hours">
              {!validWhen
                ? 'Enter a valid date and time.'
                : open
                  ? `The number shows: ${laFormat.format(when)} is within Los Angeles business hours.`
                  : `The number is hidden: ${laFormat.format(when)} (Los Angeles) is outside business hours${next ? `; it next shows ${laFormat.format(next)}` : ''}.`}
            </p>
          </>
        )}
      </output>
    </section>
  )
}
