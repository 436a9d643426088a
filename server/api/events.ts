import { Readable } from 'node:stream'
import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  API_BODY_LIMIT_BYTES,
  EVENT_BATCH_MAX,
  EVENT_TIMESTAMP_MAX_MS,
  EVENT_TIMESTAMP_MIN_MS,
} from '../../engine/constants'
import { validatorFor } from '../../engine/definitions/validators'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { checkSchema, readJsonBody } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { eventRow } from '../store/event-rows'
import { exportEvents, latestEvents } from '../store/event-store'
import { storeRefusal } from '../store/store-refusal'
import { requireOpsChannel } from './ops-auth'
import { requireStore } from './require-store'

/**
 * POST /api/event/create (spec point 7): one event body, or an array of up to EVENT_BATCH_MAX (the
 * browser's queue flushes several at once). Every body is checked against
 * schemas/analytics-event.schema.json and against what the store can hold (timestamp range), stamped
 * with server time and client IP, and the answer comes only after the rows are committed. A
 * redelivered event id is stored once and acknowledged again.
 */
export function eventApi(router: Router, deps: AppDeps): void {
  // Compile the body schemas now, not on the first visitor's event (seconds on a busy machine).
  validatorFor('analytics-event.schema.json')
  validatorFor('visitor-record.schema.json')
  // Counted for /metrics: events stored, and requests turned away by why (docs/decisions/0710).
  const rejected = deps.metrics?.eventsRejected
  router.post('/api/event/create', async (ctx) => {
    try {
      // Not inside `metrics?.…(…)`: without metrics the whole call, argument included, is skipped.
      const accepted = await createEvents(ctx)
      deps.metrics?.eventsAccepted.inc(accepted)
    } catch (e) {
      const status = (e as { status?: number }).status ?? 500
      rejected?.[status === 503 ? 'unavailable' : status < 500 ? 'invalid' : 'failed'].inc()
      throw e
    }
  })
  /** Checks and stores the request's events; answers how many. */
  async function createEvents(ctx: Context): Promise<number> {
    const store = requireStore(ctx, deps)
    const body = await readJsonBody(ctx, API_BODY_LIMIT_BYTES)
    const list = Array.isArray(body) ? body : [body]
    const at = (i: number) => (Array.isArray(body) ? `/${i}` : '')
    if (list.length === 0) throw new HttpError(400, 'body: an empty array holds no events')
    if (list.length > EVENT_BATCH_MAX)
      throw new HttpError(400, `body: ${list.length} events in one request; send at most ${EVENT_BATCH_MAX}`)
    const events = list.map((e, i) => checkSchema<AnalyticsEvent>('analytics-event.schema.json', e, at(i)))
    for (const [i, e] of events.entries()) {
      const t = Date.parse(e.timestamp)
      if (Number.isNaN(t)) throw new HttpError(400, `${at(i)}/timestamp: is not a date`)
      if (t < EVENT_TIMESTAMP_MIN_MS || t > EVENT_TIMESTAMP_MAX_MS)
        throw new HttpError(
          400,
          `${at(i)}/timestamp: ${e.timestamp} is outside ${new Date(EVENT_TIMESTAMP_MIN_MS).toISOString()} … ${new Date(EVENT_TIMESTAMP_MAX_MS).toISOString()}`,
        )
    }
    const now = new Date()
    const { ip } = clientOf(ctx)
    try {
      await store.events.write(events.map((e) => eventRow(e, now, ip)))
    } catch (e) {
      const refused = storeRefusal(e)
      if (refused) throw new HttpError(400, `body: the store refused an event: ${refused}`)
      throw e
    }
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { ok: true, accepted: events.length }
    return events.length
  }

  // `npm run events -- export` while this server holds the PGlite folder: NDJSON, streamed.
  router.get('/api/_ops/events/export', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    const since = isoDate(ctx.query.since, 'since')
    const until = isoDate(ctx.query.until, 'until')
    ctx.set('Cache-Control', 'no-store')
    ctx.type = 'application/x-ndjson'
    ctx.body = Readable.from(
      (async function* () {
        for await (const e of exportEvents(store.db, since, until)) yield `${JSON.stringify(e)}\n`
      })(),
    )
  })

  // For `npm run events` while this server holds the PGlite folder (over its operator socket).
  router.get('/api/_ops/events', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    const limit = Math.min(Math.max(Number(ctx.query.limit) || 20, 1), 1000)
    const after = typeof ctx.query.after === 'string' ? ctx.query.after : undefined
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { events: await latestEvents(store.db, limit, after) }
  })
}

/** A query parameter holding an ISO date; 400 naming it otherwise. */
function isoDate(value: unknown, name: string): Date {
  const t = typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (Number.isNaN(t))
    throw new HttpError(400, `${name}: an ISO date is required (e.g. 2026-11-01T00:00:00Z)`)
  return new Date(t)
}
