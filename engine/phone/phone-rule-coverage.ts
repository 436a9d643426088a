/**
 * Phone-rule coverage (CONTROL-CENTER §7 gate 5, issue 15 gate 4): which rule wins for every visitor
 * a brand can have, computed with the very functions the site uses (select-phone-rule.ts), so a rule
 * that can never win and pages that fall through to the brand default are found before publishing.
 *
 * The visitor space is finite per brand: a page served on the brand (or none), a utm_source that one
 * of the brand's rules names (or any other, which matches no criterion: the same as none), and an afid
 * likewise. Every class of visitors is tried once, so the answer is exact, not a heuristic.
 */
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import type { DefinitionError, Snapshot } from '../snapshot/types'
import { isWithinBusinessHours } from './business-hours'
import {
  type PhoneRuleFacts,
  phoneRuleMatches,
  phoneRuleSpecificity,
  phoneRulesForPage,
  selectPhoneRule,
} from './select-phone-rule'

/** The rule the site shows: the page's rules (as the server sends them), then the most specific match. */
export function whichPhoneRule(rules: readonly PhoneRule[], facts: PhoneRuleFacts): PhoneRule | null {
  return selectPhoneRule(phoneRulesForPage(rules, facts.brandId, facts.pageKey), facts)
}

/** The order rules are tried in: most specific first, ties by id, the default (no `match`) last. */
export function phoneRulesInOrder(rules: readonly PhoneRule[]): PhoneRule[] {
  return [...rules].sort(
    (a, b) => phoneRuleSpecificity(b) - phoneRuleSpecificity(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )
}

/** Each condition of a rule with whether the visitor meets it (the simulator's "why"). */
export interface ConditionResult {
  criterion: 'brand' | 'pages' | 'utmSource' | 'afid'
  values: string[]
  met: boolean
}

export function phoneRuleConditions(rule: PhoneRule, facts: PhoneRuleFacts): ConditionResult[] {
  const out: ConditionResult[] = [
    { criterion: 'brand', values: [rule.brand], met: rule.brand === facts.brandId },
  ]
  const m = rule.match ?? {}
  if (m.pages)
    out.push({ criterion: 'pages', values: m.pages, met: phoneRuleMatches(only(rule, 'pages'), facts) })
  if (m.utmSource)
    out.push({
      criterion: 'utmSource',
      values: m.utmSource,
      met: phoneRuleMatches(only(rule, 'utmSource'), facts),
    })
  if (m.afid)
    out.push({ criterion: 'afid', values: m.afid, met: phoneRuleMatches(only(rule, 'afid'), facts) })
  return out
}

/** The rule with just one of its criteria, so the engine's own matcher judges each one. */
function only(rule: PhoneRule, c: 'pages' | 'utmSource' | 'afid'): PhoneRule {
  return { ...rule, match: { [c]: rule.match?.[c] } }
}

export interface ShadowedRule {
  id: string
  brand: string
  /** The rules that win instead wherever this one matches (empty: it matches no visitor at all). */
  shadowedBy: string[]
}

export interface FallThrough {
  brand: string
  /** The brand's default rule. */
  defaultRule: string
  /** Pages of the brand no rule names in `match.pages`. */
  pages: string[]
  /** Pages some rule of the brand names. */
  specificPages: string[]
}

export interface PhoneRuleCoverage {
  shadowed: ShadowedRule[]
  fallThrough: FallThrough[]
}

/**
 * Rules that can never win, and per brand that has page-specific rules, the pages that fall through to
 * the default. `pagesByBrand`: the keys of the pages served on each brand.
 */
export function phoneRuleCoverage(
  rules: readonly PhoneRule[],
  pagesByBrand: ReadonlyMap<string, readonly string[]>,
): PhoneRuleCoverage {
  const brands = [...new Set(rules.map((r) => r.brand))].sort()
  const shadowed: ShadowedRule[] = []
  const fallThrough: FallThrough[] = []
  for (const brandId of brands) {
    const own = rules.filter((r) => r.brand === brandId)
    const pages = [...(pagesByBrand.get(brandId) ?? [])].sort()
    const pageOptions: (string | null)[] = pages.length ? pages : [null]
    const sources = phoneRuleSources(own, brandId)
    const afids = [null, ...phoneRuleAfids(own, brandId)]
    const wins = new Set<string>()
    const beaten = new Map<string, Set<string>>(own.map((r) => [r.id, new Set<string>()]))
    for (const pageKey of pageOptions)
      for (const utmSource of sources)
        for (const afid of afids) {
          const facts: PhoneRuleFacts = { brandId, pageKey, utmSource, afid }
          const winner = whichPhoneRule(own, facts)
          if (!winner) continue
          wins.add(winner.id)
          for (const r of own)
            if (r.id !== winner.id && phoneRuleMatches(r, facts)) beaten.get(r.id)!.add(winner.id)
        }
    for (const r of phoneRulesInOrder(own))
      if (!wins.has(r.id))
        shadowed.push({ id: r.id, brand: brandId, shadowedBy: [...beaten.get(r.id)!].sort() })
    const defaultRule = own.find((r) => !r.match)
    const specificPages = new Set(own.flatMap((r) => r.match?.pages ?? []))
    if (defaultRule && specificPages.size && pages.length) {
      const left = pages.filter((p) => !specificPages.has(p))
      if (left.length)
        fallThrough.push({
          brand: brandId,
          defaultRule: defaultRule.id,
          pages: left,
          specificPages: [...specificPages].filter((p) => pages.includes(p)).sort(),
        })
    }
  }
  return { shadowed, fallThrough }
}

/** The traffic sources that tell a brand's visitors apart: none (or any other), then each its rules name. */
export function phoneRuleSources(rules: readonly PhoneRule[], brandId: string): (string | null)[] {
  const own = rules.filter((r) => r.brand === brandId)
  return [null, ...new Set(own.flatMap((r) => r.match?.utmSource ?? []).map((s) => s.toLowerCase()))]
}

/** The afids a brand's rules name. */
export function phoneRuleAfids(rules: readonly PhoneRule[], brandId: string): string[] {
  return [...new Set(rules.filter((r) => r.brand === brandId).flatMap((r) => r.match?.afid ?? []))].sort()
}

export interface CoverageMatrix {
  /** Columns: null is "no utm_source, or one no rule names". */
  sources: (string | null)[]
  /** One row per page served on the brand (sorted), each with the winning rule's id per column (null: none). */
  rows: { page: string; winners: (string | null)[] }[]
}

/**
 * The page × traffic source → rule matrix of one brand for visitors with `afid` (null: none): which
 * rule the site shows in every cell, by the same function the site uses.
 */
export function phoneCoverageMatrix(
  rules: readonly PhoneRule[],
  brandId: string,
  pages: readonly string[],
  afid: string | null = null,
): CoverageMatrix {
  const sources = phoneRuleSources(rules, brandId)
  const rows = [...pages].sort().map((page) => ({
    page,
    winners: sources.map(
      (utmSource) => whichPhoneRule(rules, { brandId, pageKey: page, utmSource, afid })?.id ?? null,
    ),
  }))
  return { sources, rows }
}

/** Words for a shadowed rule (the screen and the publish checks say the same). */
export function shadowedMessage(s: ShadowedRule): string {
  return s.shadowedBy.length
    ? `phone rule "${s.id}" can never win: wherever it matches, ${s.shadowedBy.map((id) => `"${id}"`).join(', ')} ${s.shadowedBy.length === 1 ? 'wins' : 'win'} first`
    : `phone rule "${s.id}" can never win: it matches no visitor of a page served on brand "${s.brand}"`
}

const LISTED_PAGES = 12

export function fallThroughMessage(f: FallThrough): string {
  const shown = f.pages.slice(0, LISTED_PAGES).join(', ')
  const more = f.pages.length > LISTED_PAGES ? ` and ${f.pages.length - LISTED_PAGES} more` : ''
  return `${f.pages.length} page${f.pages.length === 1 ? '' : 's'} of brand "${f.brand}" fall through to the default "${f.defaultRule}" (no page-specific rule, unlike ${f.specificPages.join(', ') || 'other pages'}): ${shown}${more}`
}

const HOUR_MS = 3_600_000
/** A week and a bit: business hours repeat weekly, so an opening is always within this. */
const SEARCH_HOURS = 8 * 24

/**
 * When the phone number next shows (the lines open), at or after `at`: `at` itself when open now,
 * else the next whole hour that is open (LA's offset is whole hours, so openings are on UTC hours).
 * Null when no hour of the coming week is open.
 */
export function nextBusinessOpening(at: Date | number, utmMedium?: string | null): Date | null {
  const t = typeof at === 'number' ? at : at.getTime()
  if (isWithinBusinessHours(t, utmMedium)) return new Date(t)
  const first = Math.ceil(t / HOUR_MS) * HOUR_MS
  for (let h = 0; h <= SEARCH_HOURS; h++) {
    const candidate = first + h * HOUR_MS
    if (isWithinBusinessHours(candidate, utmMedium)) return new Date(candidate)
  }
  return null
}

/** The keys of the pages served on each brand. */
export function pagesByBrand(
  pages: Iterable<{ key: string; brands: readonly string[] }>,
): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const p of pages) for (const b of p.brands) out.set(b, [...(out.get(b) ?? []), p.key])
  return out
}

/**
 * The publish checks' phone-rule coverage warnings on a valid snapshot, in the `file pointer message`
 * shape of validation errors: one per rule that can never win, one per brand with pages falling through
 * to its default. Warnings never block publishing.
 */
export function phoneCoverageWarnings(snapshot: Pick<Snapshot, 'pages' | 'documents'>): DefinitionError[] {
  const rules = [...snapshot.documents.phoneRule.values()]
  const c = phoneRuleCoverage(rules, pagesByBrand(snapshot.pages.values()))
  const at = (id: string, pointer: string, message: string): DefinitionError => ({
    file: `definitions/phone-rules/${id}.json`,
    line: 0,
    column: 0,
    pointer,
    message,
  })
  return [
    ...c.shadowed.map((s) => at(s.id, '/match', shadowedMessage(s))),
    ...c.fallThrough.map((f) => at(f.defaultRule, '', fallThroughMessage(f))),
  ]
}
