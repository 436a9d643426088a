import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAGE_PAYLOAD_SUFFIX } from '../../../engine/constants'

import { CC_HOST, type CcHarness, startCcHarness } from './cc-test-harness'

const ID = 'aetna-what-to-check'
const PAGE = '/reviews/aetna/medicare-advantage-what-to-check'
const live = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../definitions/articles', `${ID}.json`), 'utf8'),
)

/** The articles editor's list and its preview, over HTTP, against the published page's own data. */
describe('articles API', { timeout: 90_000 }, () => {
  let h: CcHarness<'ed'>
  beforeAll(async () => {
    h = await startCcHarness({ prefix: 'fw-cc-articles-', staff: { ed: { name: 'Ed', role: 'editor' } } })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const call = (method: string, path: string, body?: unknown, host = CC_HOST) =>
    h.call('ed', method, path, body, { host })
  const preview = (article: unknown, branch = 'live') =>
    call('POST', `/api/cc/branches/${branch}/article-preview`, { article })

  it('lists the articles with their documents, the authors and where articles are served', async () => {
    const r = await call('GET', '/api/cc/branches/live/articles')
    expect(r.status).toBe(200)
    const row = r.json.articles.find((a: { id: string }) => a.id === ID)
    expect(row).toMatchObject({ path: `definitions/articles/${ID}.json`, state: 'unchanged', draft: false })
    expect(row.article).toEqual(live)
    expect(r.json.authors).toContainEqual({ id: 'mpa-agents', name: 'MyPlanAdvocate Licensed Agent Team' })
    expect(r.json.serving).toEqual([{ brand: 'mpa', pattern: '/reviews/{slug...}' }])
  })

  it('previews an article with the HTML the published article page carries', async () => {
    const published = await call('GET', `${PAGE}${PAGE_PAYLOAD_SUFFIX}`, undefined, 'mpa.localhost')
    expect(published.status).toBe(200)
    const r = await preview(live)
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ brand: 'mpa', path: PAGE })
    expect(r.json.html).toBe(published.json.article.html)
    expect(r.json.html).toContain('<h2>1. Your doctors</h2>')
  })

  it('runs the same sanitiser: a script in the Markdown is text, an unsafe link is dropped', async () => {
    const body = ['## Edited', '', '<script>alert(1)</script>', '', '[x](javascript:alert(1))', '']
    const r = await preview({ ...live, body })
    expect(r.status).toBe(200)
    expect(r.json.html).toContain('<h2>Edited</h2>')
    expect(r.json.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(r.json.html).not.toMatch(/<script|javascript:/i)
    // The unsaved draft replaces the article of the same id; the live page is untouched.
    const published = await call('GET', `${PAGE}${PAGE_PAYLOAD_SUFFIX}`, undefined, 'mpa.localhost')
    expect(published.json.article.html).not.toContain('Edited')
    // A string body renders the same as its lines.
    expect((await preview({ ...live, body: body.join('\n') })).json.html).toBe(r.json.html)
  })

  it('previews a new slug at its URL, and refuses what it cannot show with a 400 naming the field', async () => {
    const moved = await preview({ ...live, id: 'brand-new', slug: 'aetna/brand-new' })
    expect(moved.json).toMatchObject({ brand: 'mpa', path: '/reviews/aetna/brand-new' })
    const noBody = await preview({ ...live, body: 3 })
    expect(noBody.status).toBe(400)
    expect(noBody.json.error).toBe('/article/body: must be Markdown, a string or a list of lines')
    const none = await call('POST', '/api/cc/branches/live/article-preview', { nope: 1 })
    expect(none.status).toBe(400)
    expect(none.json.error).toBe('/article: send the article as an object')
    const badBrand = await call('POST', '/api/cc/branches/live/article-preview', {
      article: live,
      brand: 'm10',
    })
    expect(badBrand.status).toBe(400)
    expect(badBrand.json.error).toBe('/brand: brand "m10" serves no article page')
  })
})
