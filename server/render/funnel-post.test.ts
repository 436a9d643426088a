/**
 * Funnel steps posted as plain forms (docs/decisions/0216), over HTTP against the in-process app with
 * Vite rendering the pages: every step of /quiz/otc to the thank-you page, an invalid answer shown
 * again at its field with the value kept, no answer in any Location, the events and the consent
 * record stored as the browser would send them (marked server-side), Spanish messages in Spanish.
 */

import type { Server } from 'node:http'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Middleware } from 'koa'
import compose from 'koa-compose'
import c2k from 'koa-connect'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANONYMOUS_ID_COOKIE, ANSWER_KEY_COOKIE, FUNNEL_POST_BODY_LIMIT_BYTES } from '../../engine/constants'
import { validatorFor } from '../../engine/definitions/validators'
import { validValue } from '../../engine/funnel/sample-values'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { sha256Hex } from '../consent/consent-versions'
import { SnapshotStore } from '../content/snapshot-store'
import { answerKeyStatus } from '../store/answer-store'
import { consentRecordsOf } from '../store/consent-store'
import { leadStory } from '../store/lead-store'
import { openStore, type Store } from '../store/open-store'
import { keyHash } from './funnel-visitor'
import { createVikeDevMiddleware } from './vike-render'

interface Answer {
  status: number
  location: string | undefined
  cookies: string[]
  body: string
}

let store: Store
let server: Server
let port: number
let snapshots: SnapshotStore
let closeVite: () => Promise<void>
let sim: MarketplaceSimulator

beforeAll(async () => {
  store = await openStore({ databaseUrl: null, dataDir: null })
  sim = await startMarketplaceSimulator()
  const config = {
    ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error' }),
    mediaalphaBaseUrl: sim.url,
  }
  snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
  const { devMiddleware, viteServer } = await createVikeDevMiddleware({
    root: config.projectRoot,
    // Server rendering only: no client dependencies to optimise, in a cache of its own.
    viteConfig: {
      server: { hmr: false },
      logLevel: 'error',
      optimizeDeps: { noDiscovery: true, include: [] },
      cacheDir: join(tmpdir(), 'fw-funnel-post-test-vite'),
    },
  })
  closeVite = async () => {
    await viteServer?.close()
  }
  const assets = compose([c2k(devMiddleware as never) as Middleware])
  const app = createApp({ config, snapshots, store, assets, getPort: () => port })
  server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  port = (server.address() as AddressInfo).port
}, 120_000)

afterAll(async () => {
  await new Promise((r) => (server ? server.close(r) : r(null)))
  await closeVite?.()
  await sim?.close()
  await store?.close()
})

const host = (brand: string) => `${brand}.localhost:${port}`

/** One request to the app on a brand's host; `body` null sends none. */
function send(
  method: string,
  brand: string,
  path: string,
  headers: Record<string, string>,
  body: string | null,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: {
          host: host(brand),
          ...(body === null
            ? {}
            : { origin: `http://${host(brand)}`, 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            cookies: res.headers['set-cookie'] ?? [],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
      },
    )
    req.on('error', reject)
    req.end(body ?? undefined)
  })
}

function post(
  brand: string,
  path: string,
  form: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const body = typeof form === 'string' ? form : new URLSearchParams(form).toString()
  return send(
    'POST',
    brand,
    path,
    { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', ...headers },
    body,
  )
}

const funnelOf = (id: string): ResolvedFunnel => snapshots.current.funnels.get(id)!
/** The visitor's cookies as a browser sends them back: the anonymous id and its answer key. */
const cookieOf = (a: Answer) =>
  a.cookies
    .map((c) => c.split(';')[0])
    .filter((c) => c.startsWith(`${ANONYMOUS_ID_COOKIE}=`) || c.startsWith(`${ANSWER_KEY_COOKIE}=`))
    .join('; ')
const keyOf = (cookie: string) =>
  cookie
    .split('; ')
    .find((c) => c.startsWith(`${ANSWER_KEY_COOKIE}=`))!
    .split('=')[1]
const idOf = (cookie: string) =>
  cookie
    .split('; ')
    .find((c) => c.startsWith(`${ANONYMOUS_ID_COOKIE}=`))!
    .split('=')[1]

/** The bodies of the phone leases made for a visitor, in order. */
const leasesOf = (anonymousId: string) =>
  sim.requests
    .filter((r) => r.path === '/get-phone' && (r.body as { sub_2?: string }).sub_2 === anonymousId)
    .map((r) => r.body as Record<string, unknown>)

/** A valid answer of every field of a step, as a form posts it. */
function validForm(funnel: ResolvedFunnel, stepName: string): Record<string, string> {
  const step = funnel.steps.find((s) => s.name === stepName)!
  return Object.fromEntries(step.fields.map((f) => [f.name, String(validValue(f))]))
}

describe('a funnel step posted as a plain form', () => {
  it('walks /quiz/otc to the thank-you page: 303 to each next step, tracked parameters kept, no answer in a URL', async () => {
    const funnel = funnelOf('quiz-otc')
    const answers = funnel.steps.flatMap((s) => Object.values(validForm(funnel, s.name)))
    let path = '/quiz/otc/zip?utm_source=fb&zipcode=12345'
    let cookie = ''
    const visited: string[] = []
    for (const step of funnel.steps) {
      visited.push(step.name)
      const a = await post('m10', path, validForm(funnel, step.name), cookie ? { cookie } : {})
      expect(a.status, `${step.name}: ${a.body.slice(0, 300)}`).toBe(303)
      cookie ||= cookieOf(a)
      const location = a.location!
      for (const v of answers) expect(location).not.toContain(encodeURIComponent(v))
      // Only the tracked parameters travel on: the stray zipcode of an old GET is dropped.
      expect(location).toContain('utm_source=fb')
      expect(location).not.toContain('zipcode')
      path = location
    }
    expect(path).toBe('/thank-you?utm_source=fb')
    expect(visited).toEqual(funnel.steps.map((s) => s.name))

    const anonymousId = idOf(cookie)
    const events = (
      await store.db.query<{ name: string; body: { properties: Record<string, unknown> } }>(
        'SELECT name, body FROM events WHERE anonymous_id = $1 ORDER BY client_ts, name',
        [anonymousId],
      )
    ).rows
    const validate = validatorFor('analytics-event.schema.json')
    for (const e of events) {
      expect(validate(e.body), JSON.stringify(validate.errors)).toBe(true)
      expect(e.body.properties.serverSide).toBe(true)
    }
    const submitted = events.filter((e) => e.name === 'formStepSubmitted')
    expect(submitted.map((e) => e.body.properties.stepName)).toEqual(funnel.steps.map((s) => s.name))
    expect(submitted.at(-1)!.body.properties.data).toEqual(validForm(funnel, 'contact'))
    expect(submitted[1].body.properties.data).toEqual({ haveMedicare: true })
    expect(events.filter((e) => e.name === 'funnelCompleted')).toHaveLength(1)
    expect(events.filter((e) => e.name === 'quiz-otc').length).toBeGreaterThanOrEqual(funnel.steps.length)

    const consents = await consentRecordsOf(store.db, { sessions: [], anonymous: [anonymousId] })
    expect(consents).toHaveLength(1)
    expect(consents[0].step_name).toBe('contact')
    expect(consents[0].text_sha256).toBe(sha256Hex(consents[0].text))
    expect(consents[0].url).not.toContain('@')

    const stored = await store.db.query<{ bucket: string; answers: Record<string, unknown> }>(
      'SELECT bucket, answers FROM funnel_answers WHERE anonymous_id = $1 ORDER BY bucket',
      [anonymousId],
    )
    expect(stored.rows.map((r) => r.bucket)).toEqual([
      `funnelworks:form:${funnel.formVersion}`,
      'funnelworks:form:shared',
    ])
    expect(stored.rows[0].answers).toMatchObject({ zipcode: '90210', email: 'maria.lopez@example.com' })

    // The thank-you page's lease, made by the server with the answers (0221), is in the lead's story.
    let story = await leadStory(store.db, anonymousId)
    const isLease = (e: (typeof story.entries)[number]) =>
      e.kind === 'marketplace' && e.call.kind === 'get-phone'
    for (let i = 0; i < 50 && !story.entries.some(isLease); i++) {
      await new Promise((r) => setTimeout(r, 100))
      story = await leadStory(store.db, anonymousId)
    }
    const lease = story.entries.find(isLease)
    expect(lease).toMatchObject({ call: { kind: 'get-phone', ok: true, user_id: anonymousId } })
    // The ZIP step's demand check ran on the server, with the posted ZIP (docs/decisions/0524).
    const check = sim.requests.find((r) => r.path === '/demand-check')?.body as Record<string, unknown>
    expect(check).toMatchObject({ sub_2: anonymousId, data: { zip: '90210' } })
    // Every step posted a quote answer, so each post leased with the answers held then (0235); the last,
    // made as the funnel finished, has every answer and is the thank-you page's.
    const leaseBodies = leasesOf(anonymousId)
    expect(leaseBodies).toHaveLength(funnel.steps.length)
    const leaseBody = leaseBodies.at(-1)!
    expect(leaseBody).toMatchObject({ sub_2: anonymousId, url: expect.stringContaining('/thank-you') })
    expect(JSON.stringify(leaseBody)).toContain('90210')
    expect(leaseBody.data).toMatchObject({ currently_insured: 1, dsnp: expect.any(Number) })
    expect(leaseBodies[0].data).toEqual({ zip: '90210' })
    expect(story.entries.some((e) => e.kind === 'consent')).toBe(true)
  })

  it('shows an invalid answer again at its field with the value kept (422), in English and in Spanish', async () => {
    const a = await post('m10', '/quiz/otc/zip', { zipcode: '9021' })
    expect(a.status).toBe(422)
    expect(a.body).toMatch(/id="field-zipcode"[^>]*value="9021"|value="9021"[^>]*id="field-zipcode"/)
    expect(a.body).toContain('id="field-zipcode-error"')
    expect(a.body).toContain('Enter a 5-digit ZIP code')
    expect(a.body).toContain('data-step="zip"')

    const es = funnelOf('quiz-medicare-es')
    const first = es.steps[0]
    const zipField = first.fields[0]
    const b = await post('m10', `/quiz/medicare-es/${first.name}`, { [zipField.name]: '12' })
    expect(b.status).toBe(422)
    expect(b.body).toContain('Escriba un código postal de 5 dígitos')
    expect(b.body).toContain('value="12"')
  })

  it('Back posts as a button; the stored answers carry over to a later step', async () => {
    const zip = await post('m10', '/quiz/otc/zip', { zipcode: '10001' })
    const cookie = cookieOf(zip)
    const back = await post('m10', '/quiz/otc/medicare', { _action: 'back' }, { cookie })
    expect(back.status).toBe(303)
    expect(back.location).toBe('/quiz/otc/zip')
    // A later step the route does not reach yet is not run: the visitor goes to the step it requires
    // (docs/decisions/0230), and nothing of what was posted that fails its check is kept.
    const early = await post('m10', '/quiz/otc/contact', { email: 'nope', phone: '' }, { cookie })
    expect(early.status).toBe(303)
    expect(early.location).toBe('/quiz/otc/medicare')
    for (const [path, form] of [
      ['/quiz/otc/medicare', { haveMedicare: 'true' }],
      ['/quiz/otc/medicaid', { haveMedicaid: 'false' }],
      ['/quiz/otc/name', { firstName: 'Ada', lastName: 'Byron' }],
    ] as const)
      expect((await post('m10', path, form, { cookie })).status).toBe(303)
    // The machine of a later step runs with the stored answers; the page shown again carries what was
    // typed and only the shown step's answers (the ZIP code stays on the server).
    const contact = await post('m10', '/quiz/otc/contact', { email: 'nope', phone: '' }, { cookie })
    expect(contact.status).toBe(422)
    expect(contact.body).toContain('value="nope"')
    // The answers stay on the server: the page's resolution script carries none (docs/decisions/0524).
    expect(contact.body).not.toContain('"zipcode":"10001"')
  })

  it('refuses another site, another body type and an oversized body with a clear 4xx', async () => {
    const cross = await post('m10', '/quiz/otc/zip', { zipcode: '90210' }, { origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    const json = await post('m10', '/quiz/otc/zip', '{"zipcode":"90210"}', {
      'content-type': 'application/json',
    })
    expect(json.status).toBe(415)
    const big = await post('m10', '/quiz/otc/zip', { zipcode: 'x'.repeat(FUNNEL_POST_BODY_LIMIT_BYTES + 1) })
    expect(big.status).toBe(413)
  })

  it('a visitor is an id and a key: posted steps keep answers under the id; an owned claim renews the key', async () => {
    const zip = await post('m10', '/quiz/otc/zip', { zipcode: '30301' })
    expect(zip.status).toBe(303)
    const cookie = cookieOf(zip)
    const id = idOf(cookie)
    // The id cookie is readable by the page; the key is not.
    expect(zip.cookies.find((c) => c.startsWith(`${ANONYMOUS_ID_COOKIE}=`))).not.toMatch(/httponly/i)
    expect(zip.cookies.find((c) => c.startsWith(`${ANSWER_KEY_COOKIE}=`))).toMatch(/httponly/i)
    // The key was listed 29 days ago: a visitor still answering keeps it (its lifetime starts again).
    await store.db.query(
      `UPDATE funnel_answer_keys SET created_at = now() - interval '29 days' WHERE anonymous_id = $1`,
      [id],
    )
    const medicare = await post('m10', '/quiz/otc/medicare', { haveMedicare: 'true' }, { cookie })
    expect(medicare.status).toBe(303)
    expect(idOf(cookieOf(medicare))).toBe(id)
    const listed = await store.db.query<{ created_at: Date | string }>(
      'SELECT created_at FROM funnel_answer_keys WHERE anonymous_id = $1',
      [id],
    )
    expect(listed.rows).toHaveLength(1)
    expect(Date.now() - new Date(listed.rows[0].created_at).getTime()).toBeLessThan(60_000)
    // Two days on (past the key's first listing + 30 days), it is still theirs.
    expect(await answerKeyStatus(store.db, id, keyHash(keyOf(cookie)), Date.now() + 2 * 86_400_000)).toBe(
      'owned',
    )
  })

  it('an anonymous id is not a key: another browser naming it reads nothing and starts afresh', async () => {
    const zip = await post('m10', '/quiz/otc/zip', { zipcode: '73301' })
    const id = idOf(cookieOf(zip))
    const posted = await post(
      'm10',
      '/quiz/otc/contact',
      { email: 'x', phone: '' },
      { cookie: `${ANONYMOUS_ID_COOKIE}=${id}` },
    )
    // A fresh id holds no answers: the funnel starts at its first step.
    expect(posted.status).toBe(303)
    expect(posted.location).toBe('/quiz/otc/zip')
    expect(posted.body).not.toContain('73301')
    expect(idOf(cookieOf(posted))).not.toBe(id)
  })
})

/** GET with a visitor's cookies. */
const get = (brand: string, path: string, cookie: string) => send('GET', brand, path, { cookie }, null)

/** The browser's lease machine asking for the visitor's number (ui/phone/phone-feature.ts). */
function askPhone(cookie: string): Promise<Answer> {
  const body = JSON.stringify({
    brandId: 'm10',
    pageKey: 'quiz-otc',
    localHour: 10,
    placementId: 'm10-Jk7Qw2Lp9Xz4',
    ruleAfid: '',
    url: `http://${host('m10')}/quiz/otc/zip`,
    urlParams: {},
    userId: 'what-the-page-says',
    sessionId: 'session-1',
    geo: {},
    values: { zipcode: '11111' },
  })
  return send(
    'POST',
    'm10',
    '/api/funnel/phone',
    { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body,
  )
}

describe("a funnel visitor's phone lease is the server's (0235)", () => {
  it('leases with the first answer, again on a posted quote change or when due, and never twice at once', async () => {
    const funnel = funnelOf('quiz-otc')
    // Before any answer the visitor holds nothing and nothing is leased.
    const unknown = await askPhone('')
    expect(unknown.status).toBe(204)

    const first = await post('m10', '/quiz/otc/zip', { zipcode: '90210' })
    expect(first.status).toBe(303)
    const cookie = cookieOf(first)
    const anonymousId = idOf(cookie)
    expect(leasesOf(anonymousId)).toHaveLength(1)
    expect(JSON.stringify(leasesOf(anonymousId)[0])).toContain('90210')

    // The next step, shown with the number held; the browser's loop is answered with it, not a new one.
    const held = await store.db.query<{ phone: string }>(
      `SELECT phone FROM marketplace_calls WHERE kind = 'get-phone' AND user_id = $1`,
      [anonymousId],
    )
    const next = await get('m10', first.location!, cookie)
    expect(next.status).toBe(200)
    expect(next.body).toContain(held.rows[0].phone)
    const asked = await askPhone(cookie)
    expect(asked.status).toBe(200)
    expect(JSON.parse(asked.body).value).toBe(held.rows[0].phone)
    expect(leasesOf(anonymousId)).toHaveLength(1)

    // The same ZIP again (Back, then on) changes nothing; another ZIP leases with it at once.
    expect((await post('m10', '/quiz/otc/zip', { zipcode: '90210' }, { cookie })).status).toBe(303)
    expect(leasesOf(anonymousId)).toHaveLength(1)
    expect((await post('m10', '/quiz/otc/zip', { zipcode: '10001' }, { cookie })).status).toBe(303)
    expect(leasesOf(anonymousId)).toHaveLength(2)
    expect(JSON.stringify(leasesOf(anonymousId)[1])).toContain('10001')
    // A step shown again with its errors leases nothing.
    expect((await post('m10', '/quiz/otc/zip', { zipcode: '1' }, { cookie })).status).toBe(422)
    expect(leasesOf(anonymousId)).toHaveLength(2)

    // Within 20 s of its end the number is due: a step shown leases once, the loop's ask too, and two
    // asks at once lease once.
    const soon = async () =>
      store.db.query(
        `UPDATE marketplace_calls SET expires_at = $2 WHERE kind = 'get-phone' AND user_id = $1`,
        [anonymousId, new Date(Date.now() + 15_000).toISOString()],
      )
    await soon()
    expect((await get('m10', `/quiz/otc/${funnel.steps[1].name}`, cookie)).status).toBe(200)
    expect(leasesOf(anonymousId)).toHaveLength(3)
    await soon()
    const [a, b] = await Promise.all([askPhone(cookie), askPhone(cookie)])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(JSON.parse(a.body).value).toBe(JSON.parse(b.body).value)
    expect(leasesOf(anonymousId)).toHaveLength(4)
    // The lease is the visitor's the cookies prove, made with the answers the server holds.
    const last = leasesOf(anonymousId)[3]
    expect(last).toMatchObject({ sub_2: anonymousId })
    expect(JSON.stringify(last)).toContain('10001')
    expect(JSON.stringify(last)).not.toContain('11111')
  })
})
