import type { Action, SingleAction } from '../../schemas/generated/action'
import { AUTO_BRAND_IDS } from '../constants'
import { ROUTE_MIDDLEWARE, UNKNOWN_ROUTE_MIDDLEWARE } from '../routing/route-middleware'
import type { BuildOptions, ErrorSink, LoadedDocument } from './build-snapshot'
import { checkDestination } from './destination'
import type { Brand, Funnel, Page, PageEntry, ResolvedFunnel, Step } from './types'

export interface CrossCheckInput {
  byKind: Map<string, Map<string, LoadedDocument>>
  pageEntries: Map<string, PageEntry>
  funnels: Map<string, ResolvedFunnel>
  sink: ErrorSink
  options: BuildOptions
}

export type CrossCheck = (input: CrossCheckInput) => void

/** Extra checks registered by later kinds (phone rules, articles, …). */
const extraChecks: CrossCheck[] = []
export function registerCrossCheck(check: CrossCheck): void {
  extraChecks.push(check)
}

export function actionsOf(action: Action | undefined): SingleAction[] {
  if (!action) return []
  return Array.isArray(action) ? action : [action]
}

export function runCrossChecks(input: CrossCheckInput): void {
  const { byKind, sink, options } = input
  const brands = byKind.get('brand') as Map<string, LoadedDocument<Brand>>
  const pages = byKind.get('page') as Map<string, LoadedDocument<Page>>
  const funnels = byKind.get('funnel') as Map<string, LoadedDocument<Funnel>>
  const steps = byKind.get('step') as Map<string, LoadedDocument<Step>>
  const checkImage = (doc: LoadedDocument, pointer: string, src: string | undefined) => {
    if (src?.startsWith('/') && options.assetExists && !options.assetExists(src)) {
      sink.add(doc, pointer, `image file "${src}" does not exist under ui/public`)
    }
  }

  for (const doc of brands.values()) {
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
    checkImage(doc, '/logo/src', b.logo.src)
    checkImage(doc, '/icon/src', b.icon.src)
    checkImage(doc, '/favicon/src', b.favicon.src)
  }

  const site = byKind.get('site')?.get('site') as LoadedDocument<{ favicon: { src: string } }> | undefined
  if (site) checkImage(site, '/favicon/src', site.data.favicon.src)

  for (const doc of pages.values()) {
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
      if (!p.form) sink.add(doc, '', 'a page with template "funnel" needs a "form" (funnel id)')
      else if (!funnels.has(p.form) && !sink.isInvalid('funnel', p.form))
        sink.add(doc, '/form', `unknown funnel "${p.form}" (no definitions/funnels/${p.form}.json)`)
      if (!p.destination) sink.add(doc, '', 'a funnel page needs a "destination" to finish to')
    } else if (p.form) {
      if (!funnels.has(p.form) && !sink.isInvalid('funnel', p.form))
        sink.add(doc, '/form', `unknown funnel "${p.form}" (no definitions/funnels/${p.form}.json)`)
    }
    if (p.template === 'legal' && !p.legal)
      sink.add(doc, '', 'a page with template "legal" needs "legal": "privacy" or "tos"')
    if (p.image) checkImage(doc, '/image/src', p.image.src)
    if (p.colorMode === 'system') {
      // Allowed by the schema, refused at run time with a warning only (spec point 2).
    }
  }

  for (const doc of funnels.values()) {
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

  for (const doc of steps.values()) {
    const seen = new Set<string>()
    doc.data.fields.forEach((f, i) => {
      if (seen.has(f.name)) sink.add(doc, `/fields/${i}/name`, `field "${f.name}" appears twice in this step`)
      seen.add(f.name)
      if (f.kind !== 'choice' && f.options)
        sink.add(doc, `/fields/${i}/options`, 'options are only used by fields of kind "choice"')
    })
  }

  for (const check of extraChecks) check(input)
}
