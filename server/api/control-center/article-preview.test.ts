import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_SESSION_COOKIE, PAGE_PAYLOAD_SUFFIX } from '../../../engine/constants'
import { createApp } from '../../app'
import { loadConfig } from '../../config'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from '../../content/content-services'
import { createSession, createStaffUser } from '../../store/auth-store'
import { openStore, type Store } from '../../store/open-store'

const CC = 'ccc.localhost'
const ID = 'aetna-what-to-check'
const PAGE = '/reviews/aetna/medicare-advantage-what-to-check'
const live = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../definitions/articles', `${ID}.json`), 'utf8'),
)

/** The articles editor's list and its preview, over HTTP, against the published page's own data. */
describe('articles API', { timeout: 90_000 }, () => {
  let dir: string
  let store: Store
  let server: Server
  let base: string
  let cc: ContentServices
  let cookie = ''

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-cc-articles-'))
    store = await openStore({ databaseUrl: null, dataDir: null })
    const config = {
      ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' }),
      databaseUrl: null,
      dataDir: dir,
      contentGitDir: join(dir, 'content.git'),
      contentSource: 'git' as const,
    }
    const opened = (await openContent(config)) as OpenedContent
    cc = startContentServices(opened, store, config, {
      listen: false,
      reconcileMs: 3_600_000,
      scheduleMs: 3_600_000,
    })
    server = createApp({ config, snapshots: opened.snapshots, store, content: cc }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const user = await createStaffUser(store.db, {
      email: `e-${randomUUID()}@x.test`,
      name: 'Ed',
      password: 'pw',
      role: 'editor',
    })
    const session = await createSession(store.db, user.id, { ip: '127.0.0.1', userAgent: 'test' })
    cookie = `${AUTH_SESSION_COOKIE}=${session.token}`
  }, 120_000)
  afterAll(async () => {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await cc?.close()
    await store?.close()
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  function call(
    method: string,
    path: string,
    body?: unknown,
    host = CC,
    // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the assertions check
  ): Promise<{ status: number; json: any }> {
    const text = body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body)
    const headers: Record<string, string> = { host, cookie }
    if (method !== 'GET')
      Object.assign(headers, { origin: `http://${host}`, 'content-type': 'application/json' })
    if (text !== undefined) headers['content-length'] = String(Buffer.byteLength(text))
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        )
      })
      req.on('error', reject)
      req.end(text)
    })
  }
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
