/**
 * Property-based fuzzing of every POST endpoint and JSON body schema (issue 12): generated bodies of
 * every shape — wrong types, huge and edge numbers, edge dates, deep nesting, prototype keys, NUL and
 * lone surrogates, bad UTF-8, wrong content types, chunked and declared lengths — always get an
 * answer below 500 (a refusal is a 4xx with a message), never a hang, and a valid event sent
 * alongside is always stored. Bounded for `npm test`; `npm run fuzz` runs many more (FUZZ_RUNS).
 */
import { randomUUID } from 'node:crypto'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_ERRORS_PATH } from '../../engine/constants'
import { demandCheckBody, getPhoneBody } from '../../engine/phone/payloads'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { sampleConsentRecord } from '../consent/sample-consent'
import { SnapshotStore } from '../content/snapshot-store'
import { setLogLevel } from '../log'
import { eventsById } from '../store/event-store'
import { openStore, type Store } from '../store/open-store'
import { sampleEvent } from '../store/sample-event'
import { dates, deep, edges, mutated } from './fuzz-arbitraries'
import { testMarketplaceFacts } from './phone-test-server'

const RUNS = Number(process.env.FUZZ_RUNS ?? 20)
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined
/** A request that takes longer than this is a hang. */
const HANG_MS = 10_000

const facts = testMarketplaceFacts({ userAgent: 'fuzz' })

/** The definitions the server serves (loaded before the tests run). */
let snapshots: SnapshotStore

/** A valid body per endpoint: the fuzzer mutates these, so it reaches past the first check. */
const VALID: Record<string, () => unknown> = {
  '/api/event/create': () => sampleEvent(),
  '/api/consent/create': () => sampleConsentRecord(snapshots.current),
  '/api/user/set': () => ({
    userId: 'user-00000001',
    anonymousId: 'anon-0001',
    session: { id: 'sess-0001', paid: false, urlParams: { gclid: 'abcdefghijklmno' } },
    urlParams: {},
    updatedAt: Date.now(),
  }),
  [CLIENT_ERRORS_PATH]: () => ({
    message: 'TypeError: x',
    stack: 'at f (a.js:1:1)',
    kind: 'error',
    url: '/',
  }),
  '/api/_auth/session': () => ({ email: 'nobody@example.com', password: 'guess' }),
  '/api/mediaalpha/demand-check': () => demandCheckBody(facts, {}),
  '/api/mediaalpha/get-phone': () => getPhoneBody(facts, {}),
  '/api/funnel/phone': () => ({
    brandId: facts.brandId,
    pageKey: facts.pageKey,
    localHour: facts.localHour,
    placementId: facts.placementId,
    ruleAfid: facts.ruleAfid,
    url: facts.url,
    urlParams: {},
    userId: facts.userId,
    sessionId: facts.sessionId,
    geo: {},
    values: {},
  }),
  '/api/funnel/resume-link': () => ({ anonymousId: 'fuzz-visitor-0002', path: '/quiz/otc/zip' }),
}

/**
 * A valid body with one leaf replaced by an edge value of the same JSON type, so the body often still
 * passes the schema and reaches the store: what the schema lets through, the store must hold (or
 * the server must refuse with a 4xx).
 */
function sameTypeEdge(valid: unknown): fc.Arbitrary<string> {
  const leaves: { path: (string | number)[]; type: string }[] = []
  const walk = (v: unknown, path: (string | number)[]) => {
    if (v && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) walk(child, [...path, Array.isArray(v) ? Number(k) : k])
    else leaves.push({ path, type: typeof v })
  }
  walk(valid, [])
  const strings = fc.oneof(
    { weight: 4, arbitrary: dates },
    { weight: 1, arbitrary: edges.filter((v) => typeof v === 'string') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  )
  const numbers = fc.oneof(
    edges.filter((v) => typeof v === 'number'),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 1e21),
  )
  // Format-aware: a leaf holding a date gets dates (and is picked more often).
  const isDate = (l: { path: (string | number)[] }) =>
    /^\d{4}-\d\d-\d\dT/.test(
      String(l.path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], valid)),
    )
  const leaf = fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...leaves) },
    ...(leaves.some(isDate) ? [{ weight: 1, arbitrary: fc.constantFrom(...leaves.filter(isDate)) }] : []),
  )
  return leaf.chain((l) =>
    (isDate(l) ? dates : l.type === 'string' ? strings : l.type === 'number' ? numbers : fc.boolean()).map(
      (value) => {
        const { path } = l
        const copy = JSON.parse(JSON.stringify(valid))
        const parent = path.slice(0, -1).reduce((o, k) => o[k], copy)
        parent[path[path.length - 1]] = value
        return JSON.stringify(copy)
      },
    ),
  )
}

interface Sent {
  status: number
  body: string
}

function send(
  port: number,
  path: string,
  payload: Buffer,
  contentType: string | null,
  chunked: boolean,
): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: 'm10.localhost' }
    if (contentType !== null) headers['content-type'] = contentType
    if (!chunked) headers['content-length'] = String(payload.length)
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      )
      res.on('error', reject)
    })
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`no answer from ${path} within ${HANG_MS} ms`)))
    req.on('error', reject)
    if (chunked) {
      // Several chunks, split anywhere (also inside a multi-byte character).
      for (let i = 0; i < payload.length; i += 997) req.write(payload.subarray(i, i + 997))
      req.end()
    } else req.end(payload)
  })
}

describe('fuzzing every POST endpoint', () => {
  let store: Store
  let server: Server
  let port: number
  let sim: MarketplaceSimulator

  beforeAll(async () => {
    // Accepted client-error reports are logged as warnings: thousands of them are noise here.
    setLogLevel('error')
    sim = await startMarketplaceSimulator()
    store = await openStore({ databaseUrl: null, dataDir: null })
    const config = loadConfig(
      { NODE_ENV: 'production', LOG_LEVEL: 'error' },
      { mediaalphaBaseUrl: sim.url, mediaalphaRateLimitPerMinute: 1_000_000 },
    )
    snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    server = createApp({ config, snapshots, store }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  }, 60_000)
  afterAll(async () => {
    await new Promise((r) => server?.close(r))
    await store?.close()
    await sim?.close()
  })

  it('funnel form posts with NUL or another control character in the URL, a step, a tracked parameter or a field: 400 or 404, never 5xx', async () => {
    const control = fc.integer({ min: 0, max: 0x20 }).map((c) => (c === 0x20 ? 0x7f : c))
    const encoded = control.map((c) => `%${c.toString(16).padStart(2, '0').toUpperCase()}`)
    const funnels = fc.constantFrom('/quiz/otc', '/additional-benefits-allowance', '/grocery-allowance-r2')
    const steps = fc.constantFrom('zip', 'medicare', 'contact', '')
    const where = fc.constantFrom('step', 'after-step', 'utm', 'tracked-key', 'field', 'field-name')
    const text = fc.string({ maxLength: 12 }).map(encodeURIComponent)
    await fc.assert(
      fc.asyncProperty(funnels, steps, where, encoded, text, async (funnel, step, at, bad, filler) => {
        const stepPart =
          at === 'step'
            ? `/${filler}${bad}`
            : at === 'after-step'
              ? `/${step}${bad}${filler}`
              : step
                ? `/${step}`
                : ''
        const query =
          at === 'utm'
            ? `?utm_source=${filler}${bad}`
            : at === 'tracked-key'
              ? `?utm_${bad}=1&gclid=${filler}`
              : ''
        const form =
          at === 'field'
            ? `zipcode=9021${bad}&email=${filler}`
            : at === 'field-name'
              ? `zip${bad}code=90210`
              : 'zipcode=90210'
        // A field's tab, line feed or carriage return is a textarea's own: not refused.
        const lenient = at === 'field' && ['%09', '%0A', '%0D'].includes(bad)
        const answer = await send(
          port,
          `${funnel}${stepPart}${query}`,
          Buffer.from(form),
          'application/x-www-form-urlencoded',
          false,
        )
        if (!lenient)
          expect([400, 404], `${funnel}${stepPart}${query} ${form}: ${answer.body.slice(0, 200)}`).toContain(
            answer.status,
          )
      }),
      { numRuns: RUNS * 10, seed: SEED, endOnFailure: true },
    )
  }, 120_000)

  for (const path of Object.keys(VALID))
    it(`${path}: any body gets an answer below 500, a refusal names its reason, a valid event beside it is kept`, async () => {
      const body = fc.oneof(
        { weight: 5, arbitrary: mutated(VALID[path]()).map((s) => Buffer.from(s)) },
        { weight: 5, arbitrary: sameTypeEdge(VALID[path]()).map((s) => Buffer.from(s)) },
        {
          weight: 1,
          arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v) ?? '')),
        },
        { weight: 1, arbitrary: deep.map((s) => Buffer.from(s)) },
        // Bad UTF-8, truncated JSON, anything.
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
        {
          weight: 1,
          arbitrary: mutated(VALID[path]()).chain((s) =>
            fc.nat({ max: s.length }).map((n) => Buffer.from(s.slice(0, n))),
          ),
        },
      )
      const contentType = fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            null,
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=latin1',
            'application/json-patch+json',
            '',
          ),
        },
      )
      await fc.assert(
        fc.asyncProperty(body, contentType, fc.boolean(), async (payload, type, chunked) => {
          const eventId = randomUUID()
          const [fuzzed, alongside] = await Promise.all([
            send(port, path, payload, type, chunked),
            send(
              port,
              '/api/event/create',
              Buffer.from(JSON.stringify(sampleEvent(eventId))),
              'application/json',
              false,
            ),
          ])
          expect(fuzzed.status, fuzzed.body).toBeLessThan(500)
          if (fuzzed.status >= 400) {
            const answer = JSON.parse(fuzzed.body) as { error: string; status: number }
            expect(answer.status).toBe(fuzzed.status)
            expect(answer.error.length).toBeGreaterThan(3)
          }
          expect(alongside.status, alongside.body).toBe(200)
          expect(await eventsById(store.db, [eventId])).toHaveLength(1)
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      )
    }, 120_000)
})
