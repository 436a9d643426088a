/**
 * The events table's background work in a running server (docs/decisions/0311, 0312): partition
 * maintenance (months created ahead, expired ones dropped) at start and every PARTITION_MAINTENANCE_MS,
 * rollup catch-up every ROLLUP_INTERVAL_MS, and the funnel answers' lifetime (expired answers deleted,
 * docs/decisions/0810) at start and every ANSWERS_MAINTENANCE_MS. One step at a time: a step that falls due while another
 * runs starts when it ends. A failed step is reported (`stepFailed`) and the schedule goes on. STOP
 * lets a step under way finish, then the machine is done; no step starts after STOP.
 *
 * The steps are the `partitions`, `rollups` and `answers` actors, supplied with `provide()`; time comes from
 * `now` in the input (the model runs it on a simulated clock). The machine does no I/O itself.
 */
import { assign, fromPromise, stateIn } from 'xstate'
import { ANSWERS_MAINTENANCE_MS, PARTITION_MAINTENANCE_MS, ROLLUP_INTERVAL_MS } from '../constants'
import { setup } from '../util/machine-setup'

export type MaintenanceStep = 'partitions' | 'rollups' | 'answers'

export interface EventMaintenanceContext {
  now: () => number
  partitionMs: number
  rollupMs: number
  answersMs: number
  /** When each step is next due (ms since the epoch). */
  partitionsDueAt: number
  rollupsDueAt: number
  answersDueAt: number
  failures: number
}

export type EventMaintenanceEvent = { type: 'STOP' }

export interface EventMaintenanceInput {
  now?: () => number
  /** Defaults PARTITION_MAINTENANCE_MS, ROLLUP_INTERVAL_MS and ANSWERS_MAINTENANCE_MS; tests run shorter. */
  partitionMs?: number
  rollupMs?: number
  answersMs?: number
}

/** The next due time of a step that was due at `dueAt`: one interval on; a late step waits a whole interval (no burst). */
const nextDue = (dueAt: number, interval: number, now: number) =>
  dueAt + interval > now ? dueAt + interval : now + interval

const failed = (step: MaintenanceStep) =>
  ({
    type: 'stepFailed',
    params: ({ event }: { event: unknown }) => ({
      step,
      error: String((event as { error?: unknown }).error),
    }),
  }) as const

export const eventMaintenanceMachine = setup({
  types: {
    context: {} as EventMaintenanceContext,
    events: {} as EventMaintenanceEvent,
    input: {} as EventMaintenanceInput | undefined,
  },
  actors: {
    partitions: fromPromise<unknown>(async () => {
      throw new Error('eventMaintenanceMachine: provide the partitions actor')
    }),
    rollups: fromPromise<unknown>(async () => {
      throw new Error('eventMaintenanceMachine: provide the rollups actor')
    }),
    answers: fromPromise<unknown>(async () => {
      throw new Error('eventMaintenanceMachine: provide the answers actor')
    }),
  },
  actions: {
    stepFailed: (_, _params: { step: MaintenanceStep; error: string }) => {},
  },
  delays: {
    // Until the earliest due time (partition maintenance, rollup catch-up, answers' lifetime).
    untilNextStep: ({ context }: { context: EventMaintenanceContext }) =>
      Math.max(
        0,
        Math.min(context.partitionsDueAt, context.rollupsDueAt, context.answersDueAt) - context.now(),
      ),
  },
  guards: {
    partitionsDue: ({ context }) => context.partitionsDueAt <= context.now(),
    rollupsDue: ({ context }) => context.rollupsDueAt <= context.now(),
    answersDue: ({ context }) => context.answersDueAt <= context.now(),
  },
}).createMachine({
  id: 'eventMaintenance',
  context: ({ input }) => {
    const now = input?.now ?? (() => Date.now())
    const rollupMs = input?.rollupMs ?? ROLLUP_INTERVAL_MS
    return {
      now,
      partitionMs: input?.partitionMs ?? PARTITION_MAINTENANCE_MS,
      rollupMs,
      answersMs: input?.answersMs ?? ANSWERS_MAINTENANCE_MS,
      // Partition maintenance and the answers' lifetime at start; the first catch-up one interval later.
      partitionsDueAt: now(),
      rollupsDueAt: now() + rollupMs,
      answersDueAt: now(),
      failures: 0,
    }
  },
  initial: 'choosing',
  states: {
    choosing: {
      always: [
        { guard: 'partitionsDue', target: 'partitions.working' },
        { guard: 'rollupsDue', target: 'rollups.working' },
        { guard: 'answersDue', target: 'answers.working' },
        { target: 'waiting' },
      ],
    },
    waiting: {
      after: { untilNextStep: 'choosing' },
      on: { STOP: 'stopped' },
    },
    partitions: {
      initial: 'working',
      states: { working: { on: { STOP: 'stopping' } }, stopping: {} },
      invoke: {
        src: 'partitions',
        onDone: [
          { guard: stateIn('#eventMaintenance.partitions.stopping'), target: 'stopped' },
          {
            target: 'choosing',
            actions: assign(({ context }) => ({
              partitionsDueAt: nextDue(context.partitionsDueAt, context.partitionMs, context.now()),
            })),
          },
        ],
        onError: [
          {
            guard: stateIn('#eventMaintenance.partitions.stopping'),
            target: 'stopped',
            actions: failed('partitions'),
          },
          {
            target: 'choosing',
            actions: [
              failed('partitions'),
              assign(({ context }) => ({
                partitionsDueAt: nextDue(context.partitionsDueAt, context.partitionMs, context.now()),
                failures: context.failures + 1,
              })),
            ],
          },
        ],
      },
    },
    rollups: {
      initial: 'working',
      states: { working: { on: { STOP: 'stopping' } }, stopping: {} },
      invoke: {
        src: 'rollups',
        onDone: [
          { guard: stateIn('#eventMaintenance.rollups.stopping'), target: 'stopped' },
          {
            target: 'choosing',
            actions: assign(({ context }) => ({
              rollupsDueAt: nextDue(context.rollupsDueAt, context.rollupMs, context.now()),
            })),
          },
        ],
        onError: [
          {
            guard: stateIn('#eventMaintenance.rollups.stopping'),
            target: 'stopped',
            actions: failed('rollups'),
          },
          {
            target: 'choosing',
            actions: [
              failed('rollups'),
              assign(({ context }) => ({
                rollupsDueAt: nextDue(context.rollupsDueAt, context.rollupMs, context.now()),
                failures: context.failures + 1,
              })),
            ],
          },
        ],
      },
    },
    answers: {
      initial: 'working',
      states: { working: { on: { STOP: 'stopping' } }, stopping: {} },
      invoke: {
        src: 'answers',
        onDone: [
          { guard: stateIn('#eventMaintenance.answers.stopping'), target: 'stopped' },
          {
            target: 'choosing',
            actions: assign(({ context }) => ({
              answersDueAt: nextDue(context.answersDueAt, context.answersMs, context.now()),
            })),
          },
        ],
        onError: [
          {
            guard: stateIn('#eventMaintenance.answers.stopping'),
            target: 'stopped',
            actions: failed('answers'),
          },
          {
            target: 'choosing',
            actions: [
              failed('answers'),
              assign(({ context }) => ({
                answersDueAt: nextDue(context.answersDueAt, context.answersMs, context.now()),
                failures: context.failures + 1,
              })),
            ],
          },
        ],
      },
    },
    stopped: { type: 'final' },
  },
})
