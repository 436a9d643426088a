import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_SESSION_COOKIE } from '../../../engine/constants'
import { createApp } from '../../app'
import { loadConfig } from '../../config'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from '../../content/content-services'
import { createSession, createStaffUser } from '../../store/auth-store'
import { insertEvents } from '../../store/event-store'
import { openStore, type Store } from '../../store/open-store'

const HOST = 'ccc.localhost'
const FUNNEL = 'definitions/funnels/quiz-otc.json'
const ZIP = 'definitions/steps/zip.json'

/** The publish gates over HTTP: Checks and Impact, and a publish the consent gate refuses. */
describe('publish gates API', { timeout: 120_000 }, () => {
  let dir: string
  let store: Store
  let server: Server
  let base: string
  let cc: ContentServices
  let cookie = ''

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-cc-gates-'))
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
      name: 'Pat',
      password: 'pw',
      role: 'publisher',
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

  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the assertions check
  function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const text = body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body)
    const headers: Record<string, string> = { host: HOST, cookie }
    if (method !== 'GET')
      Object.assign(headers, { origin: `http://${HOST}`, 'content-type': 'application/json' })
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

  /** Saves `path` edited on `branch` as a draft and commits it; returns the commit. */
  // biome-ignore lint/suspicious/noExplicitAny: tests reach into the documents
  async function commitEdit(branch: string, path: string, edit: (doc: any) => void): Promise<string> {
    const file = await call('GET', `/api/cc/branches/${branch}/file?path=${path}`)
    expect(file.status).toBe(200)
    const doc = JSON.parse(file.json.text)
    edit(doc)
    const put = await call('PUT', `/api/cc/branches/${branch}/drafts?path=${path}`, {
      text: `${JSON.stringify(doc, null, 2)}\n`,
    })
    expect(put.status).toBe(200)
    const head = (await call('GET', `/api/cc/branches/${branch}`)).json.branch.head
    const commit = await call('POST', `/api/cc/branches/${branch}/commits`, {
      message: `edit ${path}`,
      expectedHead: head,
      paths: [path],
    })
    expect(commit.status).toBe(201)
    return commit.json.commit
  }

  it('shows the consent gate in Checks with the offending path and refuses the publish with 422', async () => {
    expect(
      (await call('POST', '/api/cc/branches', { title: 'Skip contact', name: 'skip-contact' })).status,
    ).toBe(201)
    const commit = await commitEdit('skip-contact', FUNNEL, (d) => {
      d.steps[4].overrides = { skippable: true }
    })
    const checks = await call('GET', '/api/cc/branches/skip-contact/checks')
    expect(checks.status).toBe(200)
    expect(checks.json.ok).toBe(false)
    expect(checks.json.errors).toHaveLength(1)
    const [error] = checks.json.errors
    expect(error).toMatchObject({ file: FUNNEL, pointer: '/steps/4' })
    expect(error.line).toBeGreaterThan(1)
    expect(error.message).toMatch(
      /^path zip→medicare→medicaid→name→contact\(skipped\) finishes with a phone number that no consent-bearing step collected: step "contact" can be skipped/,
    )
    expect(checks.json.impact.paths.funnels.map((f: { funnel: string }) => f.funnel)).toEqual(['quiz-otc'])
    expect(checks.json.impact.paths.funnels[0].edgesAdded).toContainEqual({
      from: 'contact',
      answer: 'skip',
      action: 'next',
      to: 'destination /thank-you',
    })

    const refused = await call('POST', '/api/cc/branches/skip-contact/publish', { expectedHead: commit })
    expect(refused.status).toBe(422)
    expect(refused.json.error).toMatch(/^publish refused: 1 error/)
    expect(refused.json.errors).toEqual([error])
    const live = await call('GET', '/api/cc/publications')
    expect(live.status).toBe(200)
    expect(JSON.stringify(live.json)).not.toContain(commit)
  })

  it("lists a shared step's impact with last week's visits, and publishes when the gates pass", async () => {
    const now = Date.now()
    const view = (i: number, brand: string, page: string, daysAgo: number) =>
      eventRowAt(page, brand, `s-${brand}-${i}`, new Date(now - daysAgo * 86_400_000))
    await insertEvents(store.db, [
      view(1, 'm10', 'quiz-otc', 1),
      view(1, 'm10', 'quiz-otc', 1), // the same visit's second step
      view(2, 'm10', 'quiz-otc', 2),
      view(3, 'ac', 'quiz-otc', 3),
      view(4, 'ac', 'quiz-otc', 9), // older than a week
    ])
    expect((await call('POST', '/api/cc/branches', { title: 'Zip', name: 'zip-copy' })).status).toBe(201)
    const commit = await commitEdit('zip-copy', ZIP, (d) => {
      d.subtitle = 'Plans differ by county.'
    })
    const impact = await call('GET', '/api/cc/branches/zip-copy/impact')
    expect(impact.status).toBe(200)
    expect(impact.json.ok).toBe(true)
    const [step] = impact.json.impact.steps
    expect(step).toMatchObject({ step: 'zip', changedFields: ['subtitle'], shadowed: ['test-page-quiz'] })
    expect(step.summary).toMatch(/^Shared by 14 funnels on \d+ brands$/)
    expect(step.pages).toContainEqual({
      page: 'quiz-otc',
      path: '/quiz/otc/{step?}',
      brands: ['m10', 'ac', 'emily', 'bh'],
      funnel: 'quiz-otc',
    })
    expect(impact.json.visits.days).toBe(7)
    expect(impact.json.visits.pages).toEqual(
      expect.arrayContaining([
        { page: 'quiz-otc', brand: 'ac', visits: 1 },
        { page: 'quiz-otc', brand: 'm10', visits: 2 },
      ]),
    )
    // A subtitle changes no path: every changed funnel's diff is empty.
    for (const f of impact.json.impact.paths.funnels) expect([f.edgesAdded, f.edgesRemoved]).toEqual([[], []])

    const published = await call('POST', '/api/cc/branches/zip-copy/publish', { expectedHead: commit })
    expect(published.status).toBe(200)
  })
})

function eventRowAt(page: string, brand: string, session: string, at: Date) {
  return {
    id: randomUUID(),
    type: 'page' as const,
    name: page,
    brand_id: brand,
    session_id: session,
    anonymous_id: `a-${session}`,
    user_id: null,
    paid: false,
    client_ts: at.toISOString(),
    received_at: at.toISOString(),
    ip: null,
    body: {
      type: 'page',
      timestamp: at.toISOString(),
      sessionId: session,
      anonymousId: `a-${session}`,
      name: page,
      category: 'funnel',
      properties: { eventId: randomUUID(), brand: { id: brand }, page: { name: page } },
    } as never,
  }
}
