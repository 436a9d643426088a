/**
 * The repository's catalogue: it validates, and every page reads like a finished page — a headline,
 * copy, an image that exists with its size and alt text, Spanish pages in Spanish, test pages hidden.
 */

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { articleMarkdown, articlesOf } from '../../engine/content/articles'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import { PLACEHOLDER_TEXT } from '../../engine/snapshot/placeholder-check'
import type { Snapshot } from '../../engine/snapshot/types'
import { readDefinitionFiles } from '../../server/content/read-definitions'
import { SnapshotStore } from '../../server/content/snapshot-store'

const root = join(import.meta.dirname, '..', '..')

function load(): Snapshot {
  const result = SnapshotStore.build(join(root, 'definitions'), root)
  if (!result.ok) throw new Error(result.errors.map(formatDefinitionError).join('\n'))
  return result.snapshot
}
const snapshot = load()
const pages = [...snapshot.pages.values()]
const publicPages = pages.filter((p) => !['legal', 'article'].includes(p.template))
const PLACEHOLDER = PLACEHOLDER_TEXT

/** Every string value (not key) in a document, for the placeholder check. */
function texts(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(texts).join('\n')
  if (value && typeof value === 'object') return Object.values(value).map(texts).join('\n')
  return ''
}

describe('the repository catalogue', () => {
  it('validates with every kind present', () => {
    expect(snapshot.brands.size).toBe(9)
    expect(snapshot.funnels.size).toBeGreaterThan(0)
    expect(snapshot.documents.article.size).toBeGreaterThanOrEqual(3)
    expect(snapshot.documents.author.size).toBeGreaterThanOrEqual(1)
  })

  it.each(publicPages.map((p) => [p.key, p] as const))('%s has a headline, copy and an image', (_, page) => {
    expect(page.headline?.length).toBeGreaterThan(10)
    expect(page.title?.length).toBeGreaterThan(3)
    expect(page.description?.length).toBeGreaterThan(30)
    expect(page.image, 'hero image').toBeDefined()
    expect(page.image!.alt.length).toBeGreaterThan(10)
    const svg = readFileSync(join(root, 'ui', 'public', page.image!.src), 'utf8')
    expect(svg).toMatch(new RegExp(`viewBox="0 0 ${page.image!.width} ${page.image!.height}"`))
    expect(svg).toMatch(/<title>[^<]{10,}<\/title>/)
    expect(texts(page)).not.toMatch(PLACEHOLDER)
  })

  it('uses the spec features a real site uses, so visitors and tests meet them', () => {
    const all = [...snapshot.pages.values()]
    // An optional question a visitor may skip (spec point 4: a skip submits the step emptied).
    const skippable = [...snapshot.funnels.values()].flatMap((f) => f.steps.filter((s) => s.skippable))
    expect(skippable.map((s) => s.name)).toContain('credit')
    // A landing page that tracks a view of its offer on entering (page on-enter, decision 0304).
    expect(all.filter((p) => p.template === 'landing' && p.onEnter).map((p) => p.key)).toContain('grocery')
    // Source-media ids per brand, for every brand the page is served on.
    for (const p of all.filter((x) => x.smid))
      expect(Object.keys(p.smid!).sort(), p.key).toEqual([...p.brands].sort())
    expect(all.some((p) => p.smid && p.xsmid)).toBe(true)
    // A page that forces its colour mode (never `system`, which is refused with a warning).
    expect(all.filter((p) => p.colorMode).map((p) => p.colorMode)).toEqual(['light'])
  })

  it('has no placeholder text in any step, funnel or article', () => {
    for (const f of snapshot.funnels.values()) expect(texts(f)).not.toMatch(PLACEHOLDER)
    for (const a of articlesOf(snapshot.documents)) expect(articleMarkdown(a)).not.toMatch(PLACEHOLDER)
  })

  it('starts every definition file with its $schema, so editors autocomplete', () => {
    for (const f of readDefinitionFiles(join(root, 'definitions'), root)) {
      const first = Object.keys(JSON.parse(f.text))[0]
      expect(first, f.path).toBe('$schema')
    }
  })

  it('serves Spanish copy on -es pages', () => {
    const es = pages.filter((p) => p.path.endsWith('-es'))
    expect(es.map((p) => p.path).sort()).toEqual([
      '/get-yours-csnp-es',
      '/get-yours-otc-es',
      '/get-yours-ss1-es',
    ])
    for (const p of es) {
      expect(p.language).toBe('es')
      expect(`${p.headline} ${p.subheadline}`).toMatch(/\b(su|de|para|con|el|la)\b/)
    }
  })

  it('hides test pages and thank-you pages from search engines', () => {
    for (const path of ['/test', '/test-page', '/new-page-demo', '/test-page-quiz/{step?}', '/thank-you']) {
      const matching = pages.filter((x) => x.path === path)
      expect(matching.length, path).toBeGreaterThan(0)
      for (const p of matching) expect(p.indexable, p.key).toBe(false)
    }
  })

  it('gives every funnel page a form, a product and a relative destination served on its brands', () => {
    for (const p of pages.filter((x) => x.template === 'funnel')) {
      expect(snapshot.funnels.has(p.form!), p.key).toBe(true)
      expect(p.product, p.key).toBeTruthy()
      // The thank-you page in the funnel's language (docs/decisions/0211).
      expect(p.destination, p.key).toBe(p.language === 'es' ? '/gracias' : '/thank-you')
      expect(p.path, p.key).toMatch(/\/\{step\?\}$/)
    }
  })

  it('asks the Medicare questions on Medicare brands and the auto questions on auto brands', () => {
    for (const p of pages.filter((x) => x.template === 'funnel' && x.key !== 'test-page-quiz')) {
      const fields = snapshot.funnels.get(p.form!)!.steps.flatMap((s) => s.fields.map((f) => f.name))
      const auto = p.brands.every((b) => snapshot.brands.get(b)!.vertical === 'auto')
      const expected = auto
        ? [
            'zipcode',
            'vehicleAmount',
            'currentlyInsured',
            'insuranceCompany',
            'homeowner',
            'firstName',
            'phone',
          ]
        : ['zipcode', 'haveMedicare', 'haveMedicaid', 'firstName', 'lastName', 'email', 'phone']
      expect(fields, p.key).toEqual(expect.arrayContaining(expected))
      // The ZIP code first (the step's URL name is in the funnel's language).
      expect(snapshot.funnels.get(p.form!)!.steps[0].fields[0].name, p.key).toBe('zipcode')
    }
  })

  it('offers "other" as the unknown insurer and the four credit ratings', () => {
    const company = snapshot.steps.get('company')!.fields[0]
    expect(company.options!.map((o) => o.value)).toContain('other')
    const credit = snapshot.steps.get('credit')!.fields[0]
    expect(credit.options!.map((o) => o.value)).toEqual(['excellent', 'good', 'average', 'poor'])
  })
})
