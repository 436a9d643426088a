/**
 * Cross-checks for phone rules (listed in engine/snapshot/cross-checks.ts): the brand exists and is
 * public, every public brand has exactly one default rule, named pages exist on the brand, and no two
 * rules of a brand could both be the most specific for the same visitor.
 */
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import type { CrossCheckInput, LoadedDocument } from '../snapshot/build-context'

const CRITERIA = ['pages', 'utmSource', 'afid'] as const

function overlaps(a: PhoneRule, b: PhoneRule): boolean {
  const am = a.match ?? {}
  const bm = b.match ?? {}
  return CRITERIA.every((c) => {
    const av = am[c]
    const bv = bm[c]
    if (!!av !== !!bv) return false
    if (!av || !bv) return true
    const norm = (v: string) => (c === 'utmSource' ? v.toLowerCase() : v)
    return av.some((v) => bv.map(norm).includes(norm(v)))
  })
}

export function checkPhoneRules({ byKind, pageEntries, sink }: CrossCheckInput): void {
  const rules = [...byKind.phoneRule.values()]
  const brands = byKind.brand
  const defaults = new Map<string, LoadedDocument<PhoneRule>>()
  for (const doc of rules) {
    const r = doc.data
    const brand = brands.get(r.brand)?.data
    if (!brand) {
      // A brand file that exists but failed its own validation was reported already.
      if (sink.isInvalid('brand', r.brand)) continue
      sink.add(doc, '/brand', `unknown brand "${r.brand}" (known: ${[...brands.keys()].sort().join(', ')})`)
      continue
    }
    if (brand.vertical === 'internal') {
      sink.add(doc, '/brand', `brand "${r.brand}" is internal and shows no phone line`)
      continue
    }
    if (!r.match) {
      const other = defaults.get(r.brand)
      if (other)
        sink.add(
          doc,
          '',
          `brand "${r.brand}" already has a default phone rule (${other.file}); give this one a "match"`,
        )
      else defaults.set(r.brand, doc)
    }
    ;(r.match?.pages ?? []).forEach((key, i) => {
      const page = pageEntries.get(key)
      if (!page && sink.isInvalid('page', key)) return
      if (!page) sink.add(doc, `/match/pages/${i}`, `unknown page "${key}"`)
      else if (!page.brands.includes(r.brand))
        sink.add(doc, `/match/pages/${i}`, `page "${key}" is not served on brand "${r.brand}"`)
    })
  }
  for (const [id, doc] of brands) {
    if (doc.data.vertical === 'internal' || defaults.has(id)) continue
    if (!rules.length) continue // a definitions set without phone rules (tests, fixtures) shows no phone line
    sink.add(
      doc,
      '',
      `brand "${id}" has no default phone rule (add definitions/phone-rules/${id}-default.json without "match")`,
    )
  }
  for (let i = 0; i < rules.length; i++) {
    for (let j = i + 1; j < rules.length; j++) {
      const a = rules[i].data
      const b = rules[j].data
      if (a.brand === b.brand && a.match && b.match && overlaps(a, b))
        sink.add(
          rules[j],
          '/match',
          `matches the same visitors as phone rule "${a.id}" with the same criteria; which one applies would be ambiguous`,
        )
    }
  }
}
