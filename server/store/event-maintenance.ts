/**
 * What a running server does for the events table in the background (docs/decisions/0311, 0312):
 * keeps the monthly partitions created ahead, catches the rollups up every ROLLUP_INTERVAL_MS (readers
 * catch up too, so this only keeps their work small), and — with EVENTS_RETENTION_DAYS — drops expired
 * partitions. Several instances on one PostgreSQL may all run it: each step takes its own lock.
 */
import { log } from '../log'
import type { Db } from './db'
import { createPartitionsAhead, dropExpiredPartitions } from './event-partitions'
import { ROLLUP_INTERVAL_MS, refreshRollups } from './rollups'

/** Partitions ahead and retention are looked at this often (and at start). */
export const PARTITION_MAINTENANCE_MS = 60 * 60_000

export interface EventMaintenance {
  /** Stops the timers and waits for a step under way. */
  stop(): Promise<void>
}

export function startEventMaintenance(
  db: Db,
  opts: { retentionDays: number | null; rollupMs?: number; partitionMs?: number },
): EventMaintenance {
  let running: Promise<unknown> = Promise.resolve()
  let stopped = false
  const step = (what: string, fn: () => Promise<unknown>) => {
    if (stopped) return
    running = running.then(fn).catch((e) => log('warn', `events: ${what} failed`, { error: String(e) }))
  }
  const partitions = () =>
    step('partition maintenance', async () => {
      await createPartitionsAhead(db)
      if (opts.retentionDays === null) return
      const dropped = await dropExpiredPartitions(db, opts.retentionDays)
      if (dropped.length)
        log('info', 'events: expired partitions dropped', {
          partitions: dropped.map((p) => p.name),
          retentionDays: opts.retentionDays,
        })
    })
  partitions()
  const timers = [
    setInterval(partitions, opts.partitionMs ?? PARTITION_MAINTENANCE_MS),
    setInterval(() => step('rollup catch-up', () => refreshRollups(db)), opts.rollupMs ?? ROLLUP_INTERVAL_MS),
  ]
  for (const t of timers) t.unref()
  return {
    async stop() {
      stopped = true
      for (const t of timers) clearInterval(t)
      await running
    },
  }
}
