import type { PhoneRule } from '../../schemas/generated/phone-rule'

export interface PhoneRuleFacts {
  brandId: string
  pageKey: string | null
  utmSource?: string | null
  afid?: string | null
}

/**
 * How specific a rule is: afid outweighs utm_source, which outweighs page (docs/decisions/0401).
 * A rule without `match` (the brand default) scores 0.
 */
export function phoneRuleSpecificity(rule: PhoneRule): number {
  const m = rule.match
  if (!m) return 0
  return (m.afid ? 4 : 0) + (m.utmSource ? 2 : 0) + (m.pages ? 1 : 0)
}

export function phoneRuleMatches(rule: PhoneRule, facts: PhoneRuleFacts): boolean {
  if (rule.brand !== facts.brandId) return false
  const m = rule.match
  if (!m) return true
  if (m.pages && (!facts.pageKey || !m.pages.includes(facts.pageKey))) return false
  if (m.utmSource) {
    const source = facts.utmSource?.toLowerCase()
    if (!source || !m.utmSource.some((s) => s.toLowerCase() === source)) return false
  }
  if (m.afid && (!facts.afid || !m.afid.includes(facts.afid))) return false
  return true
}

/** The most specific rule that matches; ties go to the rule whose id sorts first. */
export function selectPhoneRule(rules: readonly PhoneRule[], facts: PhoneRuleFacts): PhoneRule | null {
  let best: PhoneRule | null = null
  for (const rule of rules) {
    if (!phoneRuleMatches(rule, facts)) continue
    if (
      !best ||
      phoneRuleSpecificity(rule) > phoneRuleSpecificity(best) ||
      (phoneRuleSpecificity(rule) === phoneRuleSpecificity(best) && rule.id < best.id)
    )
      best = rule
  }
  return best
}

/** Rules a page can use whatever the traffic source: the brand's rules for this page or any page. */
export function phoneRulesForPage(
  rules: Iterable<PhoneRule>,
  brandId: string,
  pageKey: string | null,
): PhoneRule[] {
  return [...rules]
    .filter((r) => r.brand === brandId && (!r.match?.pages || (pageKey && r.match.pages.includes(pageKey))))
    .sort((a, b) => a.id.localeCompare(b.id))
}
