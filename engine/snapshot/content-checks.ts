/**
 * Cross-checks of the content kinds (articles, authors, experiments, images) and of where pages send visitors.
 * Listed with every other kind's checks in cross-checks.ts.
 */
import { articleSlug } from '../content/articles'
import { IMAGE_UPLOADS_URL } from '../content/image-limits'
import { compileRoutePattern, matchRoutePattern, type RoutePattern } from '../routing/route-pattern'
import { actionsOf, type CrossCheckInput, checkImage } from './build-context'
import type { PageEntry } from './types'

export function checkArticles(input: CrossCheckInput): void {
  const { sink } = input
  const authors = input.byKind.author
  const slugs = new Map<string, string>()
  for (const doc of input.byKind.article.values()) {
    const a = doc.data
    if (!authors.has(a.author) && !sink.isInvalid('author', a.author))
      sink.add(
        doc,
        '/author',
        `unknown author "${a.author}" (no definitions/authors/${a.author}.json; known: ${[...authors.keys()].sort().join(', ') || 'none'})`,
      )
    const slug = articleSlug(a)
    const other = slugs.get(slug)
    if (other) sink.add(doc, a.slug ? '/slug' : '/id', `slug "${slug}" is already used by article "${other}"`)
    else slugs.set(slug, a.id)
    if (a.updated && a.updated < a.date)
      sink.add(doc, '/updated', `updated ${a.updated} is before date ${a.date}`)
    checkImage(input, doc, '/image/src', a.image?.src)
  }
}

/** An uploaded image has alt text unless it is decorative; its file is named after it and exists. */
export function checkImages(input: CrossCheckInput): void {
  for (const doc of input.byKind.image.values()) {
    const img = doc.data
    if (!img.decorative && !img.alt.trim())
      input.sink.add(doc, '/alt', 'alt text is required unless the image is marked decorative')
    if (!img.src.startsWith(`${IMAGE_UPLOADS_URL}${img.id}.`))
      input.sink.add(
        doc,
        '/src',
        `src "${img.src}" must be ${IMAGE_UPLOADS_URL}${img.id}.<hash>.webp (named after the image)`,
      )
    else checkImage(input, doc, '/src', img.src)
  }
}

/** Pages that list related articles must name existing ones. */
export function checkRelatedArticles(input: CrossCheckInput): void {
  const articles = input.byKind.article
  for (const doc of input.byKind.page.values()) {
    ;(doc.data.relatedArticles ?? []).forEach((id, i) => {
      if (!articles.has(id) && !input.sink.isInvalid('article', id))
        input.sink.add(
          doc,
          `/relatedArticles/${i}`,
          `unknown article "${id}" (no definitions/articles/${id}.json)`,
        )
    })
  }
}

export function checkExperiments(input: CrossCheckInput): void {
  const { sink, pageEntries, funnels } = input
  // A page serves one running experiment at a time: which visitor saw what must be unambiguous.
  const runningOn = new Map<string, string>()
  for (const doc of input.byKind.experiment.values()) {
    const e = doc.data
    if (!pageEntries.has(e.page) && !sink.isInvalid('page', e.page))
      sink.add(doc, '/page', `unknown page "${e.page}" (no page with this key in definitions/pages/)`)
    if (e.status === 'running') {
      const other = runningOn.get(e.page)
      if (other)
        sink.add(
          doc,
          '/status',
          `experiment "${other}" is already running on page "${e.page}"; pause or finish one of them`,
        )
      else runningOn.set(e.page, e.id)
    }
    const total = e.variants.reduce((sum, v) => sum + v.weight, 0)
    if (total !== 100) sink.add(doc, '/variants', `variant weights sum to ${total}; they must sum to 100`)
    const ids = new Set<string>()
    e.variants.forEach((v, i) => {
      if (ids.has(v.id)) sink.add(doc, `/variants/${i}/id`, `variant id "${v.id}" is used twice`)
      ids.add(v.id)
      const form = v.overrides?.form
      if (form !== undefined && !funnels.has(form) && !sink.isInvalid('funnel', form))
        sink.add(
          doc,
          `/variants/${i}/overrides/form`,
          `unknown funnel "${form}" (no definitions/funnels/${form}.json)`,
        )
      checkImage(input, doc, `/variants/${i}/overrides/image/src`, v.overrides?.image?.src)
    })
  }
}

/** Relative links of a page (destination, call to action, go-to-page actions) must be served on each of its brands. */
export function checkLinksResolve(input: CrossCheckInput): void {
  const { sink, pageEntries } = input
  const pages = input.byKind.page
  const funnelDocs = input.byKind.funnel
  const patterns = new Map<string, { brands: string[]; list: RoutePattern[] }>()
  for (const [key, entry] of pageEntries) {
    const list: RoutePattern[] = []
    for (const src of [entry.path, ...(entry.aliases ?? [])]) {
      try {
        list.push(compileRoutePattern(src))
      } catch {
        // An invalid pattern is reported by the snapshot builder.
      }
    }
    patterns.set(key, { brands: entry.brands, list })
  }
  const servedOn = (pathname: string, brand: string) =>
    [...patterns.values()].some(
      (p) => p.brands.includes(brand) && p.list.some((r) => matchRoutePattern(r, pathname)),
    )
  const pathOf = (href: string) => href.split(/[?#]/)[0] || '/'
  const isRelative = (href: string) => href.startsWith('/') && !href.startsWith('//')

  const docOf = (entry: PageEntry) => [...pages.values()].find((d) => d.file === entry.file)
  for (const entry of pageEntries.values()) {
    const doc = docOf(entry)
    if (!doc) continue
    const links: { pointer: string; href: string }[] = []
    if (entry.destination && isRelative(entry.destination))
      links.push({ pointer: '/destination', href: entry.destination })
    if (entry.cta?.href && isRelative(entry.cta.href))
      links.push({ pointer: '/cta/href', href: entry.cta.href })
    for (const { pointer, href } of links) {
      const missing = entry.brands.filter((b) => !servedOn(pathOf(href), b))
      if (missing.length)
        sink.add(
          doc,
          pointer,
          `"${href}" is not served on brand${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
        )
    }
    if (entry.template === 'article') {
      const rest = compileRoutePatternSafe(entry.path)?.segments.at(-1)
      if (rest?.kind !== 'rest')
        sink.add(
          doc,
          entry.path === `/${doc.id}` ? '' : '/path',
          'an "article" page needs a path ending in {slug...}',
        )
      else if (!(entry.validate ?? []).some((v) => v.middleware === 'article-exists'))
        sink.add(
          doc,
          '/template',
          `an "article" page needs "validate": [{ "middleware": "article-exists", "params": { "param": "${rest.name}" } }] so unknown slugs answer 404`,
        )
    }
  }

  // go-to-page actions of a funnel's steps must be served wherever a page runs that funnel.
  const stepDocs = input.byKind.step
  for (const entry of pageEntries.values()) {
    if (!entry.form) continue
    const funnel = funnelDocs.get(entry.form)
    if (!funnel) continue
    funnel.data.steps.forEach((ref, i) => {
      const step = stepDocs.get(ref.step)?.data
      for (const which of ['onEnter', 'onSubmit'] as const) {
        for (const a of actionsOf(ref.overrides?.[which] ?? step?.[which])) {
          if (a.type !== 'go-to-page') continue
          const missing = entry.brands.filter((b) => !servedOn(pathOf(a.path), b))
          if (missing.length)
            sink.add(
              funnel,
              `/steps/${i}`,
              `${which} goes to page "${a.path}", which is not served on brand${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (page "${entry.key}" runs this funnel there)`,
            )
        }
      }
    })
  }
}

function compileRoutePatternSafe(src: string): RoutePattern | undefined {
  try {
    return compileRoutePattern(src)
  } catch {
    return undefined
  }
}
