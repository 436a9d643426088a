/**
 * Cross-checks of the foundation kinds: brands, the site file, pages, funnels and steps.
 * Listed with every other kind's checks in cross-checks.ts.
 */
import { AUTO_BRAND_IDS } from '../constants'
import { ROUTE_MIDDLEWARE, UNKNOWN_ROUTE_MIDDLEWARE } from '../routing/route-middleware'
import { actionsOf, type CrossCheckInput, checkImage } from './build-context'
import { checkDestination } from './destination'

export function checkBrands(input: CrossCheckInput): void {
  const { sink } = input
  for (const doc of input.byKind.brand.values()) {
    const b = doc.data
    const isAuto = (AUTO_BRAND_IDS as readonly string[]).includes(b.id)
    if (isAuto && b.vertical !== 'auto')
      sink.add(
        doc,
        '/vertical',
        `brand "${b.id}" uses the auto-insurance payload and must have vertical "auto"`,
      )
    if (!isAuto && b.vertical === 'auto')
      sink.add(doc, '/vertical', `only brands ${AUTO_BRAND_IDS.join(', ')} may have vertical "auto"`)
    checkImage(input, doc, '/logo/src', b.logo.src)
    checkImage(input, doc, '/icon/src', b.icon.src)
    checkImage(input, doc, '/favicon/src', b.favicon.src)
  }
}

export function checkSite(input: CrossCheckInput): void {
  const site = input.byKind.site.get('site')
  if (site) checkImage(input, site, '/favicon/src', site.data.favicon.src)
}

export function checkPages(input: CrossCheckInput): void {
  const { sink } = input
  const funnels = input.byKind.funnel
  for (const doc of input.byKind.page.values()) {
    const p = doc.data
    const listed = new Set(p.brands ?? [])
    for (const field of ['smid', 'xsmid'] as const) {
      for (const brandId of Object.keys(p[field] ?? {})) {
        if (!listed.has(brandId))
          sink.add(
            doc,
            `/${field}`,
            `${field} names brand "${brandId}", which is not in this page's brands`,
            brandId,
          )
      }
    }
    ;(p.validate ?? []).forEach((v, i) => {
      const mw = ROUTE_MIDDLEWARE[v.middleware]
      if (!mw) {
        sink.add(
          doc,
          `/validate/${i}/middleware`,
          `${UNKNOWN_ROUTE_MIDDLEWARE} "${v.middleware}" (known: ${Object.keys(ROUTE_MIDDLEWARE).join(', ')})`,
        )
        return
      }
      for (const problem of mw.checkParams(v.params ?? {})) sink.add(doc, `/validate/${i}`, problem)
    })
    if (p.destination !== undefined) {
      const problem = checkDestination(p.destination, p.allowExternalDestination === true)
      if (problem) sink.add(doc, '/destination', problem)
    }
    if (p.cta?.href !== undefined) {
      const problem = checkDestination(p.cta.href, p.allowExternalDestination === true)
      if (problem) sink.add(doc, '/cta/href', problem)
    }
    if (p.template === 'funnel') {
      if (!p.form) sink.add(doc, '', 'a page with template "funnel" needs a "form" (funnel id)', 'form')
      else if (!funnels.has(p.form) && !sink.isInvalid('funnel', p.form))
        sink.add(doc, '/form', `unknown funnel "${p.form}" (no definitions/funnels/${p.form}.json)`)
      if (!p.destination) sink.add(doc, '', 'a funnel page needs a "destination" to finish to', 'destination')
    } else if (p.form) {
      if (!funnels.has(p.form) && !sink.isInvalid('funnel', p.form))
        sink.add(doc, '/form', `unknown funnel "${p.form}" (no definitions/funnels/${p.form}.json)`)
    }
    if (p.template === 'legal' && !p.legal)
      sink.add(doc, '', 'a page with template "legal" needs "legal": "privacy" or "tos"', 'legal')
    if (p.image) checkImage(input, doc, '/image/src', p.image.src)
  }
}

export function checkFunnels(input: CrossCheckInput): void {
  const { sink } = input
  const steps = input.byKind.step
  for (const doc of input.byKind.funnel.values()) {
    const names = new Map<string, number>()
    doc.data.steps.forEach((ref, i) => {
      const step = steps.get(ref.step)
      if (!step) {
        if (sink.isInvalid('step', ref.step)) return
        sink.add(
          doc,
          `/steps/${i}/step`,
          `unknown step "${ref.step}" (no definitions/steps/${ref.step}.json)`,
        )
        return
      }
      const name = ref.overrides?.name ?? step.data.name
      if (names.has(name))
        sink.add(
          doc,
          `/steps/${i}`,
          `step name "${name}" is used twice in this funnel (also step ${names.get(name)! + 1})`,
        )
      names.set(name, i)
    })
    doc.data.steps.forEach((ref, i) => {
      const step = steps.get(ref.step)?.data
      if (!step) return
      for (const which of ['onEnter', 'onSubmit'] as const) {
        const fromOverride = ref.overrides?.[which] !== undefined
        const list = actionsOf(ref.overrides?.[which] ?? step[which])
        list.forEach((a, j) => {
          if (a.type === 'go-to-step' && !names.has(a.step)) {
            const pointer = fromOverride ? `/steps/${i}/overrides/${which}` : `/steps/${i}/step`
            sink.add(
              doc,
              pointer,
              `${which} action ${j + 1} goes to step "${a.step}", which is not in this funnel (steps: ${[...names.keys()].join(', ')})`,
            )
          }
        })
      }
      const fields = ref.overrides?.fields ?? step.fields
      const seen = new Set<string>()
      fields.forEach((f, k) => {
        if (seen.has(f.name))
          sink.add(
            doc,
            `/steps/${i}`,
            `field "${f.name}" appears twice in step "${step.name}" (field ${k + 1})`,
          )
        seen.add(f.name)
      })
    })
  }
}

export function checkSteps(input: CrossCheckInput): void {
  const { sink } = input
  for (const doc of input.byKind.step.values()) {
    const seen = new Set<string>()
    doc.data.fields.forEach((f, i) => {
      if (seen.has(f.name)) sink.add(doc, `/fields/${i}/name`, `field "${f.name}" appears twice in this step`)
      seen.add(f.name)
      if (f.kind !== 'choice' && f.options)
        sink.add(doc, `/fields/${i}/options`, 'options are only used by fields of kind "choice"')
    })
  }
}
