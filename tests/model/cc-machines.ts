/**
 * The control center's machines (engine/control-center/machines/) as models, in the style of
 * tests/model/machines.ts: graph, paths and replay come from tests/model/machine-model.ts, and
 * MACHINE_MODELS lists these too, so `npm run paths` and machines.model.test.ts cover them.
 */
import type { AnyMachineSnapshot } from 'xstate'
import { type MutationContext, mutationMachine } from '../../engine/control-center/machines/mutation-machine'
import {
  CC_PRESENCE_RETRY_MS,
  type PresenceContext,
  presenceMachine,
} from '../../engine/control-center/machines/presence-machine'
import {
  backoffMs,
  POLL_BACKOFF_MAX_MS,
  type PollContext,
  pollMachine,
  RUN_POLL_MS,
} from '../../engine/control-center/machines/run-poll-machine'
import type { MachineModel, StepFacts } from './machine-model'

const mctx = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as MutationContext | null
const of = (f: StepFacts, name: string) => f.effects.filter((e) => e.name === name)
const isEvent = (f: StepFacts, type: string) => f.step?.kind === 'event' && f.step.event.type === type

// --- one write (issue 28: busy, error, retry) ---------------------------------------------------

export const mutationModel: MachineModel = {
  name: 'cc-mutation',
  title: 'control-center write (engine/control-center/machines/mutation-machine.ts)',
  machine: mutationMachine,
  starts: [{ name: 'screen shown', input: () => undefined }],
  payloads: {
    RUN: () => [
      { type: 'RUN', input: 'first' },
      { type: 'RUN', input: 'second' },
    ],
  },
  describe: (e) => (e.type === 'RUN' ? `send "${(e as unknown as { input: string }).input}"` : undefined),
  outcomes: {
    perform: [
      { name: 'saved', output: () => ({ ok: true }) },
      { name: 'refused', error: 'conflict' },
    ],
  },
  effects: ['done', 'fail'],
  key: (s) => {
    const c = s.context as MutationContext
    return [c.input, Math.min(c.attempts, 2), c.failure?.message ?? null]
  },
  promises: [
    {
      says: 'a send while one is in flight is ignored (one request per click)',
      holds: (f) =>
        !(f.before?.value === 'running' && f.step?.kind === 'event' && f.step.event.type === 'RUN') ||
        (f.after.value === 'running' &&
          of(f, 'perform').length === 0 &&
          mctx(f.after)!.input === mctx(f.before)!.input),
    },
    {
      says: 'busy exactly while a request is in flight',
      holds: (f) =>
        (f.after.value === 'running') === (f.after.children && Object.keys(f.after.children).length > 0),
    },
    {
      says: 'a failure is shown with its message until retry, a new send or reset',
      holds: (f) => (f.after.value === 'failed') === (mctx(f.after)!.failure !== null),
    },
    {
      says: 'retry sends the same input again',
      holds: (f) =>
        !(f.step?.kind === 'event' && f.step.event.type === 'RETRY' && f.before?.value === 'failed') ||
        (f.after.value === 'running' &&
          mctx(f.after)!.input === mctx(f.before)!.input &&
          of(f, 'perform').every((e) => e.detail === mctx(f.before)!.input)),
    },
    {
      says: 'the component hears every outcome once: done on success, fail on failure',
      holds: (f) =>
        f.step?.kind !== 'done' && f.step?.kind !== 'error'
          ? of(f, 'done').length + of(f, 'fail').length === 0
          : of(f, f.step.kind === 'done' ? 'done' : 'fail').length === 1,
    },
  ],
}

// --- a read kept fresh (issue 28: run polling, backoff on errors; every GET) ------------------------

const poll = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as PollContext | null

export const pollModel: MachineModel = {
  name: 'cc-poll',
  title:
    'content-factory run polling and every control-center read (engine/control-center/machines/run-poll-machine.ts)',
  machine: pollMachine,
  starts: [
    { name: 'run in progress', input: () => ({ initial: { data: 'running', more: true } }) },
    { name: 'plain GET', input: () => ({ more: false }) },
  ],
  payloads: { SET: () => [{ type: 'SET', answer: { data: 'cancelled', more: false } }] },
  describe: (e) => (e.type === 'SET' ? 'an action answers "cancelled"' : undefined),
  outcomes: {
    fetch: [
      { name: 'still running', output: () => ({ data: 'running', more: true }) },
      { name: 'ended', output: () => ({ data: 'succeeded', more: false }) },
      { name: 'network down', error: 'network down' },
    ],
  },
  // The backoff stops growing at 30 s: failures beyond that are one vertex.
  key: (s) => {
    const c = s.context as PollContext
    const cap = Math.ceil(Math.log2(POLL_BACKOFF_MAX_MS / c.intervalMs))
    return [c.data, c.more, c.error, Math.min(c.failures, cap)]
  },
  promises: [
    {
      says: 'data that may change is read again every interval (1 s for a run), never sooner',
      holds: (f) =>
        !(f.step?.kind === 'delay' && f.before?.value === 'waiting') ||
        (f.step.delay === RUN_POLL_MS && of(f, 'fetch').length === 1),
    },
    {
      says: 'after n failed reads in a row the next waits the interval × 2ⁿ, at most 30 s',
      holds: (f) =>
        !(f.step?.kind === 'delay' && f.before?.value === 'retrying') ||
        (f.step.delay === backoffMs(RUN_POLL_MS, poll(f.before)!.failures) &&
          f.step.delay <= POLL_BACKOFF_MAX_MS &&
          of(f, 'fetch').length === 1),
    },
    {
      says: 'data that has ended (a finished run, a plain GET) is read again only when asked',
      holds: (f) => poll(f.before)?.more !== false || of(f, 'fetch').length === 0 || isEvent(f, 'REFRESH'),
    },
    {
      says: 'no timer runs once the data has ended',
      holds: (f) => f.after.value !== 'ended' || !poll(f.after)!.more,
    },
    {
      says: 'a failed read keeps the last data and says why until a read succeeds',
      holds: (f) =>
        f.step?.kind !== 'error' ||
        (poll(f.after)!.data === poll(f.before)!.data && poll(f.after)!.error === 'network down'),
    },
    {
      says: 'an answer is shown as read, and clears the failure',
      holds: (f) =>
        f.step?.kind !== 'done' ||
        (poll(f.after)!.data === (f.step.event as { output?: { data: unknown } }).output?.data &&
          poll(f.after)!.error === null &&
          poll(f.after)!.failures === 0),
    },
    {
      says: 'asking again reads at once',
      holds: (f) => !isEvent(f, 'REFRESH') || (f.after.value === 'fetching' && of(f, 'fetch').length === 1),
    },
  ],
}

// --- presence (CONTROL-CENTER §2.5 A: heartbeat, who else is editing) -----------------------------

/** The server's timing in these answers: unlike the retry pace, so a path shows which one is followed. */
const BEAT_MS = 12_000
const PACE_MS = 4_000
const presence = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as PresenceContext | null
const answer = (names: string[]) => () => ({
  others: names.map((name, i) => ({ id: `u${i}`, name, since: '2026-11-24T17:00:00Z' })),
  heartbeatMs: BEAT_MS,
  pollMs: PACE_MS,
})

export const presenceModel: MachineModel = {
  name: 'cc-presence',
  title: 'presence (engine/control-center/machines/presence-machine.ts)',
  machine: presenceMachine,
  starts: [{ name: 'editor opened', input: (now) => ({ now }) }],
  outcomes: {
    check: [
      { name: 'nobody else', output: answer([]) },
      { name: 'Dana is here', output: answer(['Dana']) },
      { name: 'server down', error: 'server down' },
    ],
  },
  effects: ['leave'],
  // Time since my last heartbeat matters only until the next is due.
  key: (s, now) => {
    const c = s.context as PresenceContext
    const since = c.lastBeat === 0 ? 'never' : Math.min(now - c.lastBeat, BEAT_MS)
    return [c.others.length, c.failed, c.timing !== null, since]
  },
  promises: [
    {
      says: 'a check is a heartbeat when none was answered yet, 12 s (the server’s) have passed, or the tab came back',
      holds: (f) =>
        of(f, 'check').every((e) => {
          const before = presence(f.before)
          const due =
            !before?.timing ||
            isEvent(f, 'VISIBLE') ||
            before.lastBeat === 0 ||
            f.now - before.lastBeat >= before.timing.heartbeatMs
          return (e.detail as { beat: boolean }).beat === due
        }),
    },
    {
      says: 'no 12 s pass without a heartbeat while the server answers',
      holds: (f) => {
        const c = presence(f.after)!
        return c.failed || c.lastBeat === 0 || f.now - c.lastBeat <= BEAT_MS
      },
    },
    {
      says: 'checks come at the server’s pace (4 s), or every 5 s before its first answer',
      holds: (f) =>
        f.step?.kind !== 'delay' ||
        (f.step.delay === (presence(f.before)!.timing ? PACE_MS : CC_PRESENCE_RETRY_MS) &&
          of(f, 'check').length === 1),
    },
    {
      says: 'the others shown are the last answer’s; a failed check keeps them and says so',
      holds: (f) =>
        f.step?.kind === 'error'
          ? presence(f.after)!.failed && presence(f.after)!.others === presence(f.before)!.others
          : f.step?.kind !== 'done' ||
            (!presence(f.after)!.failed &&
              presence(f.after)!.others ===
                (f.step.event as { output?: { others: unknown } }).output?.others),
    },
    {
      says: 'back in front, the tab checks at once with a heartbeat',
      holds: (f) =>
        !isEvent(f, 'VISIBLE') ||
        (of(f, 'check').length === 1 && (of(f, 'check')[0].detail as { beat: boolean }).beat),
    },
    {
      says: 'goodbye is said exactly when the page goes away',
      holds: (f) => of(f, 'leave').length === (isEvent(f, 'HIDDEN') ? 1 : 0),
    },
  ],
}

export const CC_MACHINE_MODELS: MachineModel[] = [mutationModel, pollModel, presenceModel]
