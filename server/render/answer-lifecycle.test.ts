/**
 * Answers have a lifecycle (issue 36, docs/decisions/0810), over HTTP against the in-process app on
 * PGlite and PostgreSQL: posts that create a visitor are throttled per client address (429 with
 * Retry-After), one visitor's buckets stay under the documented caps however often they are written, and
 * the maintenance machine deletes answers past ANSWERS_RETENTION_DAYS on a simulated clock, with an
 * audit entry that holds counts, never answers.
 */
import type { Server } from 'node:http'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ANONYMOUS_ID_COOKIE,
  ANSWER_KEY_COOKIE,
  ANSWERS_MAX_BUCKETS_PER_VISITOR,
  ANSWERS_MAX_BYTES_PER_VISITOR,
  NEW_VISITORS_PER_WINDOW,
  NEW_VISITORS_WINDOW_MS,
} from '../../engine/constants'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { RateLimiter } from '../http/rate-limiter'
import { AnswerCapError, loadBuckets } from '../store/answer-store'
import { startEventMaintenance } from '../store/event-maintenance'
import { DB_KINDS, openTestStore, type TestStore } from '../store/test-databases'

const DAY_MS = 24 * 60 * 60_000

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

describe.each(DB_KINDS)('the lifecycle of funnel answers on %s (decision 0810)', (kind) => {
  let store: TestStore
  let server: Server
  let port: number
  let clock = Date.now()

  beforeAll(async () => {
    store = await openTestStore(kind, 'fw_answers')
    const config = loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error' })
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    const newVisitors = new RateLimiter(NEW_VISITORS_PER_WINDOW, NEW_VISITORS_WINDOW_MS, () => clock)
    server = createApp({ config, snapshots, store, newVisitors, getPort: () => port }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  }, 120_000)

  afterAll(async () => {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await store?.close()
  })

  function send(path: string, type: string, body: string, cookie = ''): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            host: `m10.localhost:${port}`,
            origin: `http://m10.localhost:${port}`,
            'content-type': type,
            'content-length': String(Buffer.byteLength(body)),
            // The error's text is enough here; a person's browser gets the same status as a page.
            accept: 'application/json',
            ...(cookie ? { cookie } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c) => chunks.push(c))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          )
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }

  const postZip = (cookie = '') =>
    send('/quiz/otc/zip', 'application/x-www-form-urlencoded', 'zipcode=90210', cookie)
  const cookieOf = (a: Answer) =>
    ((a.headers['set-cookie'] as string[] | undefined) ?? [])
      .map((c) => c.split(';')[0])
      .filter((c) => c.startsWith(`${ANONYMOUS_ID_COOKIE}=`) || c.startsWith(`${ANSWER_KEY_COOKIE}=`))
      .join('; ')
  const count = async (sql: string, params: unknown[] = []) =>
    (await store.db.query<{ n: number }>(sql, params)).rows[0].n

  it('1,000 posts from fresh clients: the first NEW_VISITORS_PER_WINDOW go on, the rest get 429 with Retry-After', async () => {
    const keysBefore = await count('SELECT count(*)::int AS n FROM funnel_answer_keys')
    const statuses = new Map<number, number>()
    const retryAfter = new Set<string>()
    let known = ''
    for (let i = 0; i < 1000; i++) {
      const a = await postZip()
      if (a.status === 303) known ||= cookieOf(a)
      statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
      if (a.status === 429) {
        retryAfter.add(String(a.headers['retry-after']))
        expect(a.body).toContain('Too many new visitors')
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({
      303: NEW_VISITORS_PER_WINDOW,
      429: 1000 - NEW_VISITORS_PER_WINDOW,
    })
    for (const s of retryAfter) {
      expect(Number(s)).toBeGreaterThanOrEqual(1)
      expect(Number(s)).toBeLessThanOrEqual(NEW_VISITORS_WINDOW_MS / 1000)
    }
    // Storage grew by the visitors let in, no more.
    expect((await count('SELECT count(*)::int AS n FROM funnel_answer_keys')) - keysBefore).toBe(
      NEW_VISITORS_PER_WINDOW,
    )
    // A visitor already known is never throttled; a new one waits for the window to end.
    for (let i = 0; i < 5; i++) expect((await postZip(known)).status).toBe(303)
    expect((await postZip()).status).toBe(429)
    clock += NEW_VISITORS_WINDOW_MS
    expect((await postZip()).status).toBe(303)
  }, 300_000)

  it('1,000 writes of buckets for one id stay under the caps: more buckets or bytes are refused, nothing is lost', async () => {
    clock += NEW_VISITORS_WINDOW_MS
    const first = await postZip()
    expect(first.status).toBe(303)
    const id = cookieOf(first).split('; ')[0].split('=')[1]
    const outcomes = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      // Half new bucket keys, half ever more answers in one bucket.
      const buckets = await loadBuckets(store.db, id)
      try {
        if (i % 2) buckets.write(`funnelworks:form:v${i}`, { zipcode: '90210' })
        else
          buckets.write('funnelworks:form:big', {
            ...buckets.read('funnelworks:form:big'),
            [`f${i}`]: 'x'.repeat(1000),
          })
        await buckets.save(store.db)
        outcomes.add('kept')
      } catch (e) {
        expect(e).toBeInstanceOf(AnswerCapError)
        expect((e as Error).message).toMatch(/at most \d+ (answer buckets|KB of answers)/)
        outcomes.add('refused')
      }
      const rows = (
        await store.db.query<{ answers: unknown }>(
          'SELECT answers FROM funnel_answers WHERE anonymous_id = $1',
          [id],
        )
      ).rows
      expect(rows.length).toBeLessThanOrEqual(ANSWERS_MAX_BUCKETS_PER_VISITOR)
      const bytes = rows.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r.answers)), 0)
      expect(bytes).toBeLessThanOrEqual(ANSWERS_MAX_BYTES_PER_VISITOR)
    }
    expect([...outcomes].sort()).toEqual(['kept', 'refused'])
    // What was kept is still the visitor's: the zip posted first is there.
    expect((await loadBuckets(store.db, id)).read('funnelworks:form:shared')).toMatchObject({
      zipcode: '90210',
    })
  }, 300_000)

  it('the maintenance run deletes answers older than ANSWERS_RETENTION_DAYS (simulated clock), audited without values', async () => {
    await store.db.query(
      `INSERT INTO funnel_answers (anonymous_id, bucket, answers, updated_at) VALUES
         ('retention-old-1', 'funnelworks:form:shared', '{"email":"old@example.com"}', now() - interval '15 days'),
         ('retention-new-1', 'funnelworks:form:shared', '{"email":"new@example.com"}', now())`,
    )
    // Both keys listed 15 days ago: the old id's goes with its answers; the new id keeps its owner.
    await store.db.query(
      `INSERT INTO funnel_answer_keys (anonymous_id, key_sha256, created_at) VALUES
         ('retention-old-1', 'k-old', now() - interval '15 days'),
         ('retention-new-1', 'k-new', now() - interval '15 days')`,
    )
    const ids = ['retention-old-1', 'retention-new-1']
    const left = () =>
      store.db
        .query<{ anonymous_id: string }>(
          'SELECT anonymous_id FROM funnel_answers WHERE anonymous_id = ANY($1::text[]) ORDER BY anonymous_id',
          [ids],
        )
        .then((r) => r.rows.map((row) => row.anonymous_id))
    // Twenty days on: the old row is 35 days old, past a 30-day retention; the new one is 20.
    const m = startEventMaintenance(store.db, {
      retentionDays: null,
      answersRetentionDays: 30,
      rollupMs: 60_000,
      now: () => Date.now() + 20 * DAY_MS,
    })
    try {
      await expect.poll(left, { timeout: 30_000 }).toEqual(['retention-new-1'])
    } finally {
      await m.stop()
    }
    const keys = await store.db.query<{ anonymous_id: string }>(
      'SELECT anonymous_id FROM funnel_answer_keys WHERE anonymous_id = ANY($1::text[])',
      [ids],
    )
    expect(keys.rows.map((r) => r.anonymous_id)).toEqual(['retention-new-1'])
    const audit = await store.db.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM audit_log WHERE action = 'answers.retention.delete' ORDER BY id DESC LIMIT 1",
    )
    expect(audit.rows[0].details).toMatchObject({ retentionDays: 30 })
    expect(audit.rows[0].details.answers as number).toBeGreaterThanOrEqual(1)
    expect(JSON.stringify(audit.rows[0].details)).not.toContain('example.com')
  }, 120_000)
})
