/**
 * Cross-checks of consent evidence (listed in engine/snapshot/cross-checks.ts): every consent text
 * names its placeholders and only brands of its vertical; every funnel step asking a phone number
 * has a consent text for each brand and the page's language; every Medicare brand has the counts of
 * its TPMO disclaimer, and no auto brand has one.
 */
import type { CrossCheckInput } from '../snapshot/build-context'
import { placeholderProblems, selectConsent } from './consent-text'

export function checkConsent(input: CrossCheckInput): void {
  const { sink, byKind } = input
  const texts = [...byKind.consent.values()]
  for (const doc of texts) {
    for (const problem of placeholderProblems(doc.data.text)) sink.add(doc, '/text', problem)
    ;(doc.data.brands ?? []).forEach((id, i) => {
      const brand = byKind.brand.get(id)?.data
      if (!brand) {
        if (!sink.isInvalid('brand', id)) sink.add(doc, `/brands/${i}`, `unknown brand "${id}"`)
      } else if (brand.vertical !== doc.data.vertical)
        sink.add(doc, `/brands/${i}`, `brand "${id}" is ${brand.vertical}, not ${doc.data.vertical}`)
    })
  }
  for (const doc of byKind.brand.values()) {
    const b = doc.data
    if (b.vertical === 'medicare' && !b.tpmo)
      sink.add(
        doc,
        '',
        'a Medicare brand needs "tpmo": { "organizations": N, "plans": N } for the CMS third-party marketing disclaimer its pages show',
      )
    if (b.vertical !== 'medicare' && b.tpmo)
      sink.add(
        doc,
        '/tpmo',
        `only Medicare brands show the TPMO disclaimer; brand "${b.id}" is ${b.vertical}`,
      )
  }
  for (const [key, page] of input.pageEntries) {
    const funnel = page.form ? input.funnels.get(page.form) : undefined
    const doc = byKind.page.get(key)
    if (!funnel || !doc) continue
    const phoneStep = funnel.steps.find((s) => s.fields.some((f) => f.kind === 'tel'))
    if (!phoneStep) continue
    for (const brandId of page.brands) {
      const brand = byKind.brand.get(brandId)?.data
      if (!brand || brand.vertical === 'internal') continue
      if (
        !selectConsent(
          texts.map((t) => t.data),
          brand,
          page.language,
        )
      )
        sink.add(
          doc,
          '/form',
          `step "${phoneStep.name}" of funnel "${funnel.id}" asks a phone number, but brand "${brandId}" has no consent text in language "${page.language}" (add definitions/consent/<id>.json with vertical "${brand.vertical}" and language "${page.language}")`,
        )
    }
  }
}
