/**
 * The control center's machines (engine/control-center/machines/) as models, in the style of
 * tests/model/machines.ts: graph, paths and replay come from tests/model/machine-model.ts, and
 * MACHINE_MODELS lists these too, so `npm run paths` and machines.model.test.ts cover them.
 */
import type { AnyMachineSnapshot } from 'xstate'
import {
  type CommitContext,
  commitMachine,
  DRAFT_NOT_SAVED,
} from '../../engine/control-center/machines/commit-machine'
import { type DebounceContext, debounceMachine } from '../../engine/control-center/machines/debounce-machine'
import {
  CC_AUTOSAVE_IDLE_MS,
  type DraftContext,
  type DraftLoad,
  draftMachine,
} from '../../engine/control-center/machines/draft-machine'
import { type MutationContext, mutationMachine } from '../../engine/control-center/machines/mutation-machine'
import {
  CC_PRESENCE_RETRY_MS,
  type PresenceContext,
  presenceMachine,
} from '../../engine/control-center/machines/presence-machine'
import {
  backoffMs,
  POLL_BACKOFF_MAX_MS,
  type PollAnswer,
  type PollContext,
  pollMachine,
  RUN_POLL_MS,
} from '../../engine/control-center/machines/run-poll-machine'
import {
  type UploadQueueContext,
  uploadQueueMachine,
} from '../../engine/control-center/machines/upload-queue-machine'
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
      says: 'a new send after a failure (or a success) sends it',
      holds: (f) =>
        !(isEvent(f, 'RUN') && f.before?.value !== 'running') ||
        (f.after.value === 'running' &&
          of(f, 'perform').length === 1 &&
          of(f, 'perform')[0].detail === (f.step!.event as unknown as { input: unknown }).input),
    },
    {
      says: 'a success keeps its answer until the next send or reset',
      holds: (f) =>
        f.after.value !== 'succeeded' || (mctx(f.after)!.output as { ok?: boolean } | undefined)?.ok === true,
    },
    {
      says: 'reset goes back to idle, forgetting the answer, the failure and the tries',
      holds: (f) =>
        !(isEvent(f, 'RESET') && (f.before?.value === 'succeeded' || f.before?.value === 'failed')) ||
        (f.after.value === 'idle' &&
          of(f, 'perform').length === 0 &&
          mctx(f.after)!.attempts === 0 &&
          mctx(f.after)!.output === undefined &&
          mctx(f.after)!.failure === null),
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
    { name: 'run ended', input: () => ({ initial: { data: 'succeeded', more: false } }) },
  ],
  payloads: {
    SET: () => [
      { type: 'SET', answer: { data: 'cancelled', more: false } },
      // An action's answer is taken as if read, even an empty one (JSON null) that may still change.
      { type: 'SET', answer: { data: null, more: true } },
    ],
  },
  describe: (e) =>
    e.type === 'SET'
      ? `an action answers "${(e as unknown as { answer: PollAnswer }).answer.data}"`
      : undefined,
  equivalentMutants: {
    'waiting —after interval: after backoff instead':
      'no read has failed in waiting (every way in — an answer, a SET, the start — has 0 failures), so the backoff is the interval × 2⁰: the same wait',
  },
  outcomes: {
    fetch: [
      { name: 'still running', output: () => ({ data: 'running', more: true }) },
      { name: 'ended', output: () => ({ data: 'succeeded', more: false }) },
      // A plain GET whose body is JSON null: still an answer.
      { name: 'empty answer', output: () => ({ data: null, more: false }) },
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
      says: 'with data from the page nothing is read at start (then read again after the interval if it may change); without, it is read at once',
      holds: (f) => {
        if (f.step !== null) return true
        if (poll(f.after)!.data === null) return f.after.value === 'fetching' && of(f, 'fetch').length === 1
        return of(f, 'fetch').length === 0 && f.after.value === (poll(f.after)!.more ? 'waiting' : 'ended')
      },
    },
    {
      says: 'an answer, read or from an action, is shown and followed: read again after the interval while it may change, else ended',
      holds: (f) => {
        const answer =
          f.step?.kind === 'done'
            ? (f.step.event as { output?: PollAnswer }).output
            : isEvent(f, 'SET')
              ? (f.step!.event as unknown as { answer: PollAnswer }).answer
              : undefined
        if (!answer) return true
        const c = poll(f.after)!
        return (
          c.data === answer.data &&
          c.more === answer.more &&
          c.error === null &&
          c.failures === 0 &&
          f.after.value === (answer.more ? 'waiting' : 'ended') &&
          of(f, 'fetch').length === 0
        )
      },
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
      says: 'hiding the tab says goodbye once (the leave call), whatever the state',
      holds: (f) => of(f, 'leave').length === (isEvent(f, 'HIDDEN') ? 1 : 0),
    },
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

// --- the draft (issue 28: autosave, saving, validation errors from the save answer, live) ---------

const dctx = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as DraftContext | null
const PROBLEM = {
  file: 'definitions/pages/grocery.json',
  line: 2,
  column: 3,
  pointer: '/destination',
  message: 'is required',
}
const load = (label: string, over: Partial<DraftLoad>) => ({
  type: 'LOADED',
  label,
  server: 'A',
  kept: null,
  carried: null,
  head: 'h1',
  hasDraft: false,
  errors: [],
  readOnly: false,
  ...over,
})
const sent = (f: StepFacts) => of(f, 'saveDraft').map((e) => e.detail as { text: string; base?: string })

export const draftModel: MachineModel = {
  name: 'cc-draft',
  title: 'a definition file’s draft (engine/control-center/machines/draft-machine.ts)',
  machine: draftMachine,
  starts: [{ name: 'editor opened', input: () => undefined }],
  payloads: {
    LOADED: (s) =>
      s.value !== 'loading'
        ? // A reload during a save or after a failure (elsewhere it is the first load again).
          ['saving', 'failed'].includes(String(s.value))
          ? [load('reloaded', { server: 'B', hasDraft: true })]
          : []
        : [
            load('the branch’s text', {}),
            load('text kept in this browser', { kept: 'A+', errors: [PROBLEM] }),
            load('on live', { readOnly: true }),
          ],
    EDIT: () => [
      { type: 'EDIT', text: 'B' },
      { type: 'EDIT', text: 'C' },
    ],
    RESOLVED: () => [{ type: 'RESOLVED', text: 'M', head: 'h2' }],
  },
  describe: (e) =>
    e.type === 'LOADED'
      ? `loaded (${(e as unknown as { label: string }).label})`
      : e.type === 'EDIT'
        ? `types "${(e as unknown as { text: string }).text}"`
        : e.type === 'RESOLVED'
          ? 'the merge dialog settles "M" on h2'
          : undefined,
  outcomes: {
    saveDraft: [
      { name: 'saved, valid', output: () => ({ errors: [] }) },
      { name: 'saved, /destination missing', output: () => ({ errors: [PROBLEM] }) },
      { name: 'network down', error: 'network down' },
    ],
  },
  effects: ['keep', 'carry', 'forget', 'offerBranch', 'saved'],
  key: (s) => {
    const c = s.context as DraftContext
    return [c.text, c.sending, c.base ?? null, c.errors.length, c.saveError, c.readOnly, c.offered]
  },
  promises: [
    {
      says: 'what is typed is the text at once, in every state (read-only too)',
      holds: (f) =>
        !isEvent(f, 'EDIT') ||
        (f.after.context as DraftContext).text === (f.step!.event as unknown as { text: string }).text,
    },
    {
      says: 'a change is saved 800 ms after typing stops, never sooner, with the text as typed last',
      holds: (f) =>
        f.step?.kind !== 'delay' ||
        (f.before?.value === 'unsaved' &&
          f.step.delay === CC_AUTOSAVE_IDLE_MS &&
          sent(f).length === 1 &&
          sent(f)[0].text === dctx(f.before)!.text),
    },
    {
      says: 'every change on a branch is kept in this browser at once, until the server has it',
      holds: (f) =>
        !isEvent(f, 'EDIT') ||
        dctx(f.before)!.readOnly ||
        of(f, 'keep').some((e) => (e.detail as { text: string }).text === dctx(f.after)!.text),
    },
    {
      says: 'a draft is sent on the commit its text was read on (none once it is my draft)',
      holds: (f) => sent(f).every((d) => d.base === dctx(f.before)!.base),
    },
    {
      says: 'shown as saved only when the server has the text as typed',
      holds: (f) =>
        !(f.after.value === 'saved' && f.step?.kind === 'done') ||
        dctx(f.after)!.sending === dctx(f.after)!.text,
    },
    {
      says: 'typing during a save is saved next, not lost',
      holds: (f) =>
        !(f.step?.kind === 'done' && dctx(f.after)!.sending !== dctx(f.after)!.text) ||
        f.after.value === 'unsaved',
    },
    {
      says: 'the errors shown are those of the last load or save answer',
      holds: (f) =>
        f.step?.kind === 'done'
          ? dctx(f.after)!.errors === (f.step.event as { output?: { errors: unknown[] } }).output?.errors
          : !isEvent(f, 'LOADED') || dctx(f.after)!.errors === (f.step!.event as unknown as DraftLoad).errors,
    },
    {
      says: 'a failed save says why, keeps the text, and waits for Retry or the next change',
      holds: (f) =>
        f.after.value !== 'failed' ||
        (dctx(f.after)!.saveError !== null &&
          (f.step?.kind !== 'error' || dctx(f.after)!.text === dctx(f.before)!.text)),
    },
    {
      says: 'the editor hears of every save once, with the text saved',
      holds: (f) =>
        of(f, 'saved').length === (f.step?.kind === 'done' ? 1 : 0) &&
        of(f, 'saved').every((e) => (e.detail as { text: string }).text === dctx(f.before)!.sending),
    },
    {
      says: 'a load shows where the text stands: read-only on live; text kept or carried here is unsaved (and kept again); else saved; nothing sent',
      holds: (f) => {
        if (!isEvent(f, 'LOADED')) return true
        const e = f.step!.event as unknown as DraftLoad
        const start = e.kept ?? e.carried ?? e.server
        const here = !e.readOnly && start !== e.server
        return (
          f.after.value === (e.readOnly ? 'readOnly' : here ? 'unsaved' : 'saved') &&
          sent(f).length === 0 &&
          of(f, 'keep').length === (here ? 1 : 0) &&
          of(f, 'keep').every((k) => (k.detail as { text: string }).text === start)
        )
      },
    },
    {
      says: 'typing on a branch waits 800 ms unsaved before it is sent (during a save, it is sent next)',
      holds: (f) =>
        !isEvent(f, 'EDIT') ||
        !['saved', 'unsaved', 'failed'].includes(String(f.before?.value)) ||
        (f.after.value === 'unsaved' && sent(f).length === 0),
    },
    {
      says: 'Save (Retry) sends the text as typed at once',
      holds: (f) =>
        !isEvent(f, 'SAVE') ||
        !['unsaved', 'failed'].includes(String(f.before?.value)) ||
        (f.after.value === 'saving' && sent(f).length === 1 && sent(f)[0].text === dctx(f.before)!.text),
    },
    {
      says: 'a save answered with nothing typed since shows saved, and the copy kept here is forgotten (only then)',
      holds: (f) => {
        if (f.step?.kind !== 'done') return true
        const unchanged = dctx(f.before)!.sending === dctx(f.before)!.text
        return (!unchanged || f.after.value === 'saved') && of(f, 'forget').length === (unchanged ? 1 : 0)
      },
    },
    {
      says: 'live is never saved: a change is carried, and a branch offered once per load',
      holds: (f) =>
        !dctx(f.after)!.readOnly ||
        (sent(f).length === 0 &&
          of(f, 'keep').length === 0 &&
          (!isEvent(f, 'EDIT') || of(f, 'carry').length === 1) &&
          of(f, 'offerBranch').length === (isEvent(f, 'EDIT') && !dctx(f.before)!.offered ? 1 : 0)),
    },
    {
      says: 'a settled merge is my draft on its head at once: shown, forgotten here, nothing older saved over it',
      holds: (f) =>
        !isEvent(f, 'RESOLVED') ||
        (f.after.value === 'saved' &&
          dctx(f.after)!.text === 'M' &&
          dctx(f.after)!.base === 'h2' &&
          of(f, 'forget').length === 1 &&
          sent(f).length === 0),
    },
  ],
}

// --- committing (issue 28: commit, conflict with a head, merge dialog) ------------------------------

const cctx = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as CommitContext | null
const offer = (head: string) => ({ files: [{ path: 'definitions/pages/grocery.json' }], head })

export const commitModel: MachineModel = {
  name: 'cc-commit',
  title: 'committing a draft, with the merge dialog (engine/control-center/machines/commit-machine.ts)',
  machine: commitMachine,
  starts: [{ name: 'editor open', input: () => undefined }],
  payloads: {
    SUBMIT: () => [
      { type: 'SUBMIT', message: 'New headline' },
      { type: 'SUBMIT', message: '  ' },
    ],
    CONFLICT: () => [{ type: 'CONFLICT', merge: offer('h3') }],
  },
  describe: (e) =>
    e.type === 'SUBMIT'
      ? `commit "${(e as unknown as { message: string }).message}"`
      : e.type === 'CONFLICT'
        ? 'the merge dialog’s commit meets a newer conflict (h3)'
        : undefined,
  outcomes: {
    flush: [
      { name: 'draft saved', output: () => true },
      { name: 'draft not saved', output: () => false },
      { name: 'signed out', error: 'signed out' },
    ],
    commit: [
      { name: 'committed', output: () => ({ committed: true }) },
      { name: '409 with head h2', output: () => ({ merge: offer('h2') }) },
      { name: 'refused', error: 'conflict without texts' },
    ],
  },
  effects: ['committed'],
  key: (s) => {
    const c = s.context as CommitContext
    return [c.message, c.failure?.message ?? null, c.merge?.head ?? null]
  },
  promises: [
    {
      says: 'Cancel (or the dialog closing) closes it from any state',
      holds: (f) => !isEvent(f, 'CLOSE') || f.after.value === 'closed',
    },
    {
      says: 'a commit made elsewhere during a merge closes the dialog',
      holds: (f) => !(isEvent(f, 'COMMITTED') && f.before?.value === 'merging') || f.after.value === 'closed',
    },
    {
      says: 'nothing is committed before my draft is on the server',
      holds: (f) =>
        of(f, 'commit').length === 0 ||
        (f.step?.kind === 'done' &&
          f.step.src === 'flush' &&
          (f.step.event as { output?: unknown }).output === true),
    },
    {
      says: 'an empty message commits nothing',
      holds: (f) =>
        !(isEvent(f, 'SUBMIT') && (f.step!.event as unknown as { message: string }).message.trim() === '') ||
        f.allEffects.length === 0 ||
        (of(f, 'flush').length === 0 && f.after.value === f.before!.value),
    },
    {
      says: 'the merge dialog is open exactly with a conflict that has a head, the newest one',
      holds: (f) =>
        (f.after.value === 'merging') === (cctx(f.after)!.merge !== null) &&
        (!isEvent(f, 'CONFLICT') || cctx(f.after)!.merge?.head === 'h3'),
    },
    {
      says: 'a failure is shown in the commit dialog with the message kept',
      holds: (f) =>
        !(f.step?.kind === 'error' || (f.step?.kind === 'done' && f.after.value === 'composing')) ||
        (cctx(f.after)!.failure !== null && cctx(f.after)!.message === cctx(f.before)!.message),
    },
    {
      says: 'a draft that could not be saved is said so',
      holds: (f) =>
        !(f.step?.kind === 'done' && f.step.src === 'flush' && f.after.value === 'composing') ||
        cctx(f.after)!.failure?.message === DRAFT_NOT_SAVED,
    },
    {
      says: 'the editor hears of each commit once, and the dialogs close',
      holds: (f) => {
        const done =
          (f.step?.kind === 'done' && f.step.src === 'commit' && f.after.value === 'closed') ||
          (isEvent(f, 'COMMITTED') && f.before?.value === 'merging')
        return of(f, 'committed').length === (done ? 1 : 0) && (!done || cctx(f.after)!.message === '')
      },
    },
    {
      says: 'opening shows the dialog to write a message: nothing is sent yet',
      holds: (f) => !isEvent(f, 'OPEN') || (f.after.value === 'composing' && f.effects.length === 0),
    },
    {
      says: 'a commit goes with the message trimmed, and the last failure is cleared',
      holds: (f) => {
        const m = isEvent(f, 'SUBMIT') ? (f.step!.event as unknown as { message: string }).message.trim() : ''
        return (
          m === '' ||
          f.before?.value !== 'composing' ||
          (cctx(f.after)!.message === m && cctx(f.after)!.failure === null)
        )
      },
    },
    {
      says: 'a failed flush, a draft not saved or a refused commit returns to the dialog',
      holds: (f) =>
        !(
          f.step?.kind === 'error' ||
          (f.step?.kind === 'done' &&
            f.step.src === 'flush' &&
            (f.step.event as { output?: unknown }).output !== true)
        ) || f.after.value === 'composing',
    },
    {
      says: 'closing forgets the failure and the conflict',
      holds: (f) =>
        f.after.value !== 'closed' || (cctx(f.after)!.failure === null && cctx(f.after)!.merge === null),
    },
  ],
}

// --- the images screen's upload queue (one at a time, in order, each with its own outcome) -------------

const queue = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as UploadQueueContext | null
const inFlight = (c: UploadQueueContext) =>
  c.items.filter((u) => u.state === 'uploading' || u.state === 'encoding')
const file = (name: string) => ({ file: name, name, size: 1000 })

export const uploadQueueModel: MachineModel = {
  name: 'cc-upload-queue',
  title: 'the images screen’s upload queue (engine/control-center/machines/upload-queue-machine.ts)',
  machine: uploadQueueMachine,
  starts: [{ name: 'images screen', input: () => undefined }],
  payloads: {
    // At most three files in all, so the graph stays small.
    ADD: (s) =>
      queue(s)!.items.length > 1
        ? []
        : [
            { type: 'ADD', files: [file('a.jpg')] },
            { type: 'ADD', files: [file('b.png'), file('c.gif')] },
            // A file dialog closed without a file (ImagesScreen sends what it got).
            { type: 'ADD', files: [] },
          ],
    PROGRESS: (s) => {
      const c = queue(s)!
      const now = inFlight(c)[0]
      const earlier = c.items.find((u) => u.state === 'done' || u.state === 'failed')
      return [
        ...(now ? [0.5, 1].map((fraction) => ({ type: 'PROGRESS', key: now.key, fraction })) : []),
        ...(earlier ? [{ type: 'PROGRESS', key: earlier.key, fraction: 0.5 }] : []),
      ]
    },
  },
  describe: (e) => {
    const ev = e as unknown as { files?: { name: string }[]; key?: number; fraction?: number }
    return e.type === 'ADD'
      ? `add ${ev.files!.map((f) => f.name).join(', ') || 'nothing'}`
      : e.type === 'PROGRESS'
        ? `file ${ev.key} at ${ev.fraction! * 100}%`
        : undefined
  },
  outcomes: {
    upload: [
      { name: 'stored', output: () => ({ id: 'img-1' }) },
      { name: 'refused', error: 'SVG is refused' },
    ],
  },
  effects: ['uploaded'],
  key: (s) => (s.context as UploadQueueContext).items.map((u) => [u.name, u.state, u.progress]),
  promises: [
    {
      says: 'one file is sent at a time, exactly while the queue is sending',
      holds: (f) => inFlight(queue(f.after)!).length === (f.after.value === 'sending' ? 1 : 0),
    },
    {
      says: 'every file added is listed at once, waiting its turn (none is lost while one is sending)',
      holds: (f) =>
        !isEvent(f, 'ADD') ||
        queue(f.after)!.items.length ===
          queue(f.before)!.items.length + (f.step!.event as unknown as { files: unknown[] }).files.length,
    },
    {
      says: 'the upload in flight shows the progress reported for it',
      holds: (f) => {
        if (!isEvent(f, 'PROGRESS')) return true
        const e = f.step!.event as unknown as { key: number; fraction: number }
        const inflight = inFlight(queue(f.before)!)[0]
        if (inflight?.key !== e.key) return true
        return queue(f.after)!.items.find((u) => u.key === e.key)?.progress === e.fraction
      },
    },
    {
      says: 'files are sent in the order they were added',
      holds: (f) =>
        of(f, 'upload').every((e) => {
          const key = (e.detail as { key: number }).key
          const c = queue(f.after)!
          return inFlight(c)[0]?.key === key && !c.items.some((u) => u.state === 'waiting' && u.key < key)
        }),
    },
    {
      says: 'a failure is that file’s alone, with its message, and the next file is sent',
      holds: (f) => {
        if (f.step?.kind !== 'error') return true
        const failed = queue(f.after)!.items.filter(
          (u) => u.state === 'failed' && u.error === 'SVG is refused',
        )
        const waitingBefore = queue(f.before)!.items.some((u) => u.state === 'waiting')
        return failed.length >= 1 && of(f, 'upload').length === (waitingBefore ? 1 : 0)
      },
    },
    {
      says: 'the screen hears of each stored image once, with its file',
      holds: (f) =>
        of(f, 'uploaded').length === (f.step?.kind === 'done' ? 1 : 0) &&
        of(f, 'uploaded').every(
          (e) => (e.detail as { key: number }).key === inFlight(queue(f.before)!)[0].key,
        ),
    },
    {
      says: 'progress moves only the file in flight; at 100% it is being converted',
      holds: (f) =>
        !isEvent(f, 'PROGRESS') ||
        queue(f.after)!.items.every((u, i) => {
          const e = f.step!.event as unknown as { key: number; fraction: number }
          const b = queue(f.before)!.items[i]
          if (u.key !== e.key || b.state === 'done' || b.state === 'failed') return u === b
          return u.progress === e.fraction && u.state === (e.fraction >= 1 ? 'encoding' : 'uploading')
        }),
    },
    {
      says: 'the queue rests only when no file waits',
      holds: (f) => f.after.value !== 'idle' || !queue(f.after)!.items.some((u) => u.state === 'waiting'),
    },
  ],
}

// --- a read that follows typing (the article preview) ------------------------------------------------

const QUIET_MS = 300
const deb = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as DebounceContext | null

export const debounceModel: MachineModel = {
  name: 'cc-debounce',
  title: 'a read that follows typing (engine/control-center/machines/debounce-machine.ts)',
  machine: debounceMachine,
  starts: [{ name: 'article editor', input: () => ({ quietMs: QUIET_MS }) }],
  payloads: {
    CHANGE: () => [
      { type: 'CHANGE', input: 'draft 1' },
      { type: 'CHANGE', input: 'draft 2' },
    ],
  },
  describe: (e) => (e.type === 'CHANGE' ? `types ${(e as unknown as { input: string }).input}` : undefined),
  outcomes: {
    read: [
      { name: 'preview', output: (c) => `preview of ${(c as DebounceContext).input}` },
      { name: 'server error', error: 'server error' },
    ],
  },
  key: (s) => {
    const c = s.context as DebounceContext
    return [c.input, c.output, c.error]
  },
  promises: [
    {
      says: 'the input is read only after 300 ms without a change, and it is the latest input',
      holds: (f) =>
        of(f, 'read').length === 0 ||
        (f.step?.kind === 'delay' &&
          f.step.delay === QUIET_MS &&
          of(f, 'read').every((e) => e.detail === deb(f.before)!.input)),
    },
    {
      says: 'a change is kept as the input to read',
      holds: (f) =>
        !isEvent(f, 'CHANGE') ||
        (f.after.context as DebounceContext).input === (f.step!.event as unknown as { input: unknown }).input,
    },
    {
      says: 'a change restarts the wait and drops a read in flight',
      holds: (f) => !isEvent(f, 'CHANGE') || (f.after.value === 'waiting' && of(f, 'read').length === 0),
    },
    {
      says: 'an answer shown is of the input it was read for, and the last answer stays meanwhile',
      holds: (f) =>
        f.step?.kind === 'done'
          ? deb(f.after)!.output === `preview of ${deb(f.after)!.input}` && deb(f.after)!.error === null
          : f.step === null || deb(f.after)!.output === deb(f.before)!.output,
    },
    {
      says: 'an answer or a failure ends the read: nothing more is read until the next change',
      holds: (f) => (f.step?.kind !== 'done' && f.step?.kind !== 'error') || f.after.value === 'idle',
    },
    {
      says: 'a failed read says why and keeps the last answer',
      holds: (f) =>
        f.step?.kind !== 'error' ||
        (deb(f.after)!.error === 'server error' && deb(f.after)!.output === deb(f.before)!.output),
    },
  ],
}

export const CC_MACHINE_MODELS: MachineModel[] = [
  debounceModel,
  uploadQueueModel,
  mutationModel,
  pollModel,
  presenceModel,
  draftModel,
  commitModel,
]
