/**
 * A steady stream of POST /api/event/create from several clients, each waiting for its answer before
 * the next batch (as the browser's queue does), recording every event id the server acknowledged and
 * every batch it did not. Used by tests/e2e/durability.e2e.ts, tests/e2e/fleet.e2e.ts and
 * `npm run bench -- fleet`.
 */
import { request } from 'node:http'
import type { Queryable } from '../../server/store/db'
import { eventsById } from '../../server/store/event-store'
import { sampleEvent } from '../../server/store/sample-event'

export interface FailedBatch {
  /** When the request was sent, and when its answer (or the error) came: Date.now(). */
  sentAt: number
  at: number
  /** The HTTP status, or the network error's code. */
  outcome: number | string
  events: ReturnType<typeof sampleEvent>[]
}

export interface EventLoad {
  /** Event ids acknowledged (200), in order. */
  acked: string[]
  failed: FailedBatch[]
  /** Milliseconds of each acknowledged request. */
  latencies: number[]
  /** Requests sent and not answered yet. */
  inFlight(): number
  /** Stops sending; resolves once every client's last request is answered. */
  stop(): Promise<void>
}

function post(port: number, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/event/create',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** `clients` loops posting batches of 1–3 new events to the server (or proxy) on `port`. */
export function startEventLoad(port: number, clients = 8): EventLoad {
  const load = { acked: [] as string[], failed: [] as FailedBatch[], latencies: [] as number[] }
  let running = true
  let inFlight = 0
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const events = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => sampleEvent())
      const t = performance.now()
      const sentAt = Date.now()
      inFlight++
      let outcome: number | string
      try {
        outcome = await post(port, JSON.stringify(events))
      } catch (e) {
        outcome = (e as NodeJS.ErrnoException).code ?? String(e)
      }
      inFlight--
      if (outcome === 200) {
        load.latencies.push(performance.now() - t)
        for (const e of events) load.acked.push(e.properties.eventId)
      } else {
        load.failed.push({ sentAt, at: Date.now(), outcome, events })
        // The browser backs off before it resends (docs/decisions/0302).
        await new Promise((r) => setTimeout(r, 20))
      }
    }
  })
  return {
    ...load,
    inFlight: () => inFlight,
    stop: async () => {
      running = false
      await Promise.all(loops)
    },
  }
}

/** Sends each failed batch again, once, as the browser's queue does; resolves the ids now acknowledged. */
export async function resend(port: number, failed: readonly FailedBatch[]): Promise<string[]> {
  const acked: string[] = []
  for (const batch of failed)
    if ((await post(port, JSON.stringify(batch.events))) === 200)
      for (const e of batch.events) acked.push(e.properties.eventId)
  return acked
}

/** Of `ids`, those the store lacks and those it holds more than once (queried by id). */
export async function storedOnce(
  db: Queryable,
  ids: readonly string[],
): Promise<{ missing: string[]; duplicated: string[] }> {
  const rows = new Map<string, number>()
  for (let i = 0; i < ids.length; i += 5_000)
    for (const e of await eventsById(db, ids.slice(i, i + 5_000))) rows.set(e.id, (rows.get(e.id) ?? 0) + 1)
  return {
    missing: ids.filter((id) => !rows.has(id)),
    duplicated: [...rows].filter(([, n]) => n > 1).map(([id]) => id),
  }
}
