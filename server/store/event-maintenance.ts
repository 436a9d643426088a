/**
 * What a running server does for the events table in the background (docs/decisions/0311, 0312):
 * keeps the monthly partitions created ahead, catches the rollups up every ROLLUP_INTERVAL_MS (readers
 * catch up too, so this only keeps their work small), and — with EVENTS_RETENTION_DAYS — drops expired
 * partitions; and deletes funnel answers past ANSWERS_RETENTION_DAYS (docs/decisions/0810). Several instances on one PostgreSQL may all run it: each step takes its own lock.
 * The schedule is engine/events/event-maintenance-machine.ts; this file gives it the real steps.
 */
import { createActor, fromPromise, toPromise } from 'xstate'
import { eventMaintenanceMachine } from '../../engine/events/event-maintenance-machine'
import { log } from '../log'
import { purgeExpiredAnswers } from './answer-store'
import type { Db } from './db'
import { createPartitionsAhead, dropExpiredPartitions } from './event-partitions'
import { refreshRollups } from './rollups'

export interface EventMaintenance {
  /** Stops the schedule and waits for a step under way. */
  stop(): Promise<void>
}

const STEP_NAMES = {
  partitions: 'partition maintenance',
  rollups: 'rollup catch-up',
  answers: 'answers retention',
} as const

export function startEventMaintenance(
  db: Db,
  opts: {
    retentionDays: number | null
    /** Days funnel answers are kept after their last change (ANSWERS_RETENTION_DAYS). */
    answersRetentionDays: number
    rollupMs?: number
    partitionMs?: number
    answersMs?: number
    /** The clock of the retention cut-offs (tests simulate it). */
    now?: () => number
  },
): EventMaintenance {
  const machine = eventMaintenanceMachine.provide({
    actors: {
      partitions: fromPromise<unknown>(async () => {
        await createPartitionsAhead(db)
        if (opts.retentionDays === null) return
        const dropped = await dropExpiredPartitions(db, opts.retentionDays)
        if (dropped.length)
          log('info', 'events: expired partitions dropped', {
            partitions: dropped.map((p) => p.name),
            retentionDays: opts.retentionDays,
          })
      }),
      rollups: fromPromise<unknown>(() => refreshRollups(db)),
      answers: fromPromise<unknown>(async () => {
        const purged = await purgeExpiredAnswers(db, opts.answersRetentionDays, (opts.now ?? Date.now)())
        if (purged.answers || purged.keys)
          log('info', 'answers: expired answers deleted', {
            ...purged,
            retentionDays: opts.answersRetentionDays,
          })
      }),
    },
    actions: {
      stepFailed: (_, { step, error }) => log('warn', `events: ${STEP_NAMES[step]} failed`, { error }),
    },
  })
  const actor = createActor(machine, {
    input: { rollupMs: opts.rollupMs, partitionMs: opts.partitionMs, answersMs: opts.answersMs },
    // As before: the schedule alone does not keep the process alive.
    clock: {
      setTimeout: (fn: (...args: unknown[]) => void, ms: number) => setTimeout(fn, ms).unref(),
      clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout),
    },
  })
  const done = toPromise(actor)
  actor.start()
  return {
    async stop() {
      actor.send({ type: 'STOP' })
      await done
    },
  }
}
