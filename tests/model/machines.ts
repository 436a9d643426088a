/**
 * The machines of engine/ besides the funnel, each as a model: payloads, what its actors may answer,
 * the part of its context that matters, and what each of its states promises. The graph, the paths
 * and the replay are tests/model/machine-model.ts; a machine added here is tested and listed by
 * `npm run paths` with no other code.
 */
import type { AnyMachineSnapshot } from 'xstate'
import { buildCheckMachine, reloadAllowed } from '../../engine/build-check/build-check-machine'
import {
  ANSWERS_MAINTENANCE_MS,
  BUILD_CHECK_INTERVAL_MS,
  PARTITION_MAINTENANCE_MS,
  PHONE_EXPIRY_CUT_ON_CHANGE_MS,
  PHONE_LEASE_TIME_S,
  PHONE_POLL_INTERVAL_MS,
  PHONE_REFRESH_BEFORE_EXPIRY_MS,
  RELOAD_GUARD_MS,
  ROLLUP_INTERVAL_MS,
  TOOLTIP_OPEN_DELAY_MS,
  TOOLTIP_SKIP_DELAY_MS,
  VISITOR_SYNC_RETRY_MS,
} from '../../engine/constants'
import { buildMessages, type ChatMessage } from '../../engine/control-center/content-factory/prompt'
import {
  MAX_REPAIRS,
  type RunContext,
  runMachine,
  SERVER_STOPPED_ERROR,
} from '../../engine/control-center/content-factory/run-machine'
import {
  type EventMaintenanceContext,
  eventMaintenanceMachine,
} from '../../engine/events/event-maintenance-machine'
import { type LeaseContext, leaseMachine } from '../../engine/phone/lease-machine'
import type { LeasedPhone } from '../../engine/phone/leased-phone'
import { type TooltipContext, tooltipMachine, tooltipStateFor } from '../../engine/tooltip/tooltip-machine'
import type { VisitorSyncContext } from '../../engine/visitor-sync/visitor-sync-machine'
import { visitorSyncMachine } from '../../engine/visitor-sync/visitor-sync-machine'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import { CC_MACHINE_MODELS } from './cc-machines'
import { type Effect, type MachineModel, MODEL_T0, type StepFacts } from './machine-model'

const S = 1000
const of = (facts: StepFacts, name: string): Effect[] => facts.effects.filter((e) => e.name === name)
const ctx = <T>(s: AnyMachineSnapshot | null) => (s?.context ?? null) as T | null
const isEvent = (f: StepFacts, type: string) => f.step?.kind === 'event' && f.step.event.type === type

// --- phone lease (spec point 9: 300 s lease, 4 s poll, renew 20 s before expiry, 10 s cut) -------

const lease =
  (value: string, seconds: number) =>
  (_: unknown, now: number): LeasedPhone => ({ value, expiresAt: now + seconds * S })
const RENEW_SOON_S = PHONE_REFRESH_BEFORE_EXPIRY_MS / S + 2
const leased = (s: AnyMachineSnapshot | null) => ctx<LeaseContext>(s)?.leased ?? null
const endsWithinRenewal = (l: LeasedPhone | null, now: number) =>
  !l || l.expiresAt - now < PHONE_REFRESH_BEFORE_EXPIRY_MS

export const leaseModel: MachineModel = {
  name: 'lease',
  title: 'phone lease (engine/phone/lease-machine.ts)',
  machine: leaseMachine,
  equivalentMutants: {
    'waitingForIp —on.IP_KNOWN→ requesting (was checking)':
      'when the IP becomes known no lease is held yet, so "checking" always goes on to "requesting"',
  },
  starts: [{ name: 'page load', input: (now) => ({ now }) }],
  outcomes: {
    requestPhone: [
      { name: `${PHONE_LEASE_TIME_S} s lease`, output: lease('18885550001', PHONE_LEASE_TIME_S) },
      { name: `${RENEW_SOON_S} s lease`, output: lease('18885550002', RENEW_SOON_S) },
      { name: 'lease already ended', output: lease('18885550003', -1) },
      { name: 'no number', output: () => null },
      { name: 'marketplace down', error: 'marketplace down' },
    ],
  },
  // Time left on the lease while it matters for renewal; a long lease is just "long".
  key: (s, now) => {
    const l = leased(s)
    const left = l ? l.expiresAt - now : null
    return [
      left === null
        ? 'none'
        : left <= 0
          ? 'ended'
          : left >= PHONE_REFRESH_BEFORE_EXPIRY_MS + 2 * PHONE_POLL_INTERVAL_MS
            ? 'long'
            : left,
      (s.context as LeaseContext).changedDuringRequest,
    ]
  },
  promises: [
    {
      says: 'no number is requested before the visitor IP is known',
      holds: (f) => f.after.value !== 'waitingForIp' || f.allEffects.length === 0,
    },
    {
      says: 'once the IP is known, a number is requested at once',
      holds: (f) =>
        !(isEvent(f, 'IP_KNOWN') && f.before?.value === 'waitingForIp') || of(f, 'requestPhone').length === 1,
    },
    {
      says: 'requests are at least 4 s apart',
      holds: (f) => {
        const at = f.allEffects.filter((e) => e.name === 'requestPhone').map((e) => e.at)
        return at.every((t, i) => i === 0 || t - at[i - 1] >= PHONE_POLL_INTERVAL_MS)
      },
    },
    {
      says: 'a number is requested only when none is held or it ends within 20 s',
      holds: (f) => of(f, 'requestPhone').length === 0 || endsWithinRenewal(leased(f.after), f.now),
    },
    {
      says: 'the lease is checked every 4 s while the IP is known',
      holds: (f) => f.step?.kind !== 'delay' || f.step.delay === PHONE_POLL_INTERVAL_MS,
    },
    {
      says: 'a lease ending within 20 s (or none) is renewed at the next check, before it expires',
      holds: (f) =>
        !(f.step?.kind === 'delay' && f.before?.value === 'waiting') ||
        !endsWithinRenewal(leased(f.before), f.now) ||
        of(f, 'requestPhone').length === 1,
    },
    {
      says: 'an expired number is never held (the page falls back to the default)',
      holds: (f) => !leased(f.after) || leased(f.after)!.expiresAt > f.now,
    },
    {
      says: 'a number shows only as the marketplace answered it: after a fallback, only a fresh answer brings one',
      holds: (f) => {
        const a = leased(f.after)
        const b = leased(f.before)
        if (!a || (b && a.value === b.value)) return true
        return f.step?.kind === 'done' && a.value === (f.step.event as { output?: LeasedPhone }).output?.value
      },
    },
    {
      says: 'a number the marketplace answers, still in force, is the one held',
      holds: (f) => {
        const out = f.step?.kind === 'done' ? (f.step.event as { output?: LeasedPhone | null }).output : null
        return !out || out.expiresAt <= f.now || leased(f.after)?.value === out.value
      },
    },
    {
      says: 'each request is counted, and starts with no quote change seen during it',
      holds: (f) =>
        ctx<LeaseContext>(f.after)!.attempts ===
          f.allEffects.filter((e) => e.name === 'requestPhone').length &&
        (f.after.value !== 'requesting' ||
          f.before?.value === 'requesting' ||
          !ctx<LeaseContext>(f.after)!.changedDuringRequest),
    },
    {
      says: 'a failed request keeps the last good number',
      holds: (f) => f.step?.kind !== 'error' || leased(f.after) === leased(f.before),
    },
    {
      says: 'a quote change cuts the lease to 10 s from now and never lengthens it',
      holds: (f) => {
        if (!isEvent(f, 'QUOTE_CHANGED') || !leased(f.after)) return true
        const after = leased(f.after)!.expiresAt
        return after <= f.now + PHONE_EXPIRY_CUT_ON_CHANGE_MS && after <= leased(f.before)!.expiresAt
      },
    },
    {
      says: 'a number chosen before a quote change is cut to 10 s when it arrives',
      holds: (f) =>
        !(f.step?.kind === 'done' && ctx<LeaseContext>(f.before)?.changedDuringRequest && leased(f.after)) ||
        leased(f.after)!.expiresAt <= f.now + PHONE_EXPIRY_CUT_ON_CHANGE_MS,
    },
  ],
}

// --- tooltip group (spec point 9: open after 700 ms, skip window 300 ms) --------------------------

const TIPS = ['a', 'b'] as const
const open = (s: AnyMachineSnapshot | null) =>
  s ? TIPS.filter((id) => tooltipStateFor(s as never, id) !== 'closed') : []
const tipEvents = (type: string) => () => TIPS.map((id) => ({ type, id }))

export const tooltipModel: MachineModel = {
  name: 'tooltip',
  title: 'tooltip group (engine/tooltip/tooltip-machine.ts)',
  machine: tooltipMachine,
  starts: [{ name: 'two tooltips a and b', input: () => undefined }],
  payloads: Object.fromEntries(
    ['POINTER_ENTER', 'POINTER_LEAVE', 'FOCUS', 'BLUR', 'CLICK', 'SCROLL'].map((t) => [t, tipEvents(t)]),
  ),
  outcomes: {},
  key: (s) => (s.context as TooltipContext).activeId,
  promises: [
    { says: 'never two tooltips open at once', holds: (f) => open(f.after).length <= 1 },
    {
      says: 'no tooltip is active while closed',
      holds: (f) => f.after.value !== 'closed' || ctx<TooltipContext>(f.after)!.activeId === null,
    },
    {
      says: 'hovering opens a tooltip only after 700 ms',
      holds: (f) =>
        f.after.value !== 'delayed-open' ||
        f.before?.value === 'delayed-open' ||
        (f.step?.kind === 'delay' && f.step.delay === TOOLTIP_OPEN_DELAY_MS),
    },
    {
      says: 'after one closes, the skip window lasts 300 ms',
      holds: (f) =>
        !(f.step?.kind === 'delay' && f.before?.value === 'skipping') ||
        f.step.delay === TOOLTIP_SKIP_DELAY_MS,
    },
    {
      says: 'focus opens its tooltip at once (or keeps it open)',
      holds: (f) =>
        !isEvent(f, 'FOCUS') || open(f.after).join() === (f.step!.event as unknown as { id: string }).id,
    },
    {
      says: 'within the skip window the next tooltip opens at once',
      holds: (f) =>
        !(f.before?.value === 'skipping' && isEvent(f, 'POINTER_ENTER')) || f.after.value === 'instant-open',
    },
    {
      says: 'hovering or focusing another tooltip while one is open replaces it at once',
      holds: (f) => {
        const before = ctx<TooltipContext>(f.before)
        const id = (f.step?.event as { id?: string } | undefined)?.id
        return (
          !(
            (isEvent(f, 'POINTER_ENTER') || isEvent(f, 'FOCUS')) &&
            open(f.before).length === 1 &&
            f.before?.value !== 'pending' &&
            id !== before?.activeId
          ) ||
          (f.after.value === 'instant-open' && ctx<TooltipContext>(f.after)!.activeId === id)
        )
      },
    },
    {
      says: 'leaving, blurring, clicking or scrolling the pending tooltip (or Escape) cancels it',
      holds: (f) => {
        const id = (f.step?.event as { id?: string } | undefined)?.id
        const cancels =
          f.before?.value === 'pending' &&
          f.step?.kind === 'event' &&
          (f.step.event.type === 'ESCAPE' ||
            (['POINTER_LEAVE', 'BLUR', 'CLICK', 'SCROLL'].includes(f.step.event.type) &&
              id === ctx<TooltipContext>(f.before)!.activeId))
        return !cancels || f.after.value === 'closed'
      },
    },
    {
      says: 'a hover on a closed group, or on another tooltip while one is pending, waits 700 ms for it',
      holds: (f) => {
        const id = (f.step?.event as { id?: string } | undefined)?.id
        const waits =
          isEvent(f, 'POINTER_ENTER') &&
          (f.before?.value === 'closed' ||
            (f.before?.value === 'pending' && id !== ctx<TooltipContext>(f.before)!.activeId))
        return !waits || (f.after.value === 'pending' && ctx<TooltipContext>(f.after)!.activeId === id)
      },
    },
    {
      says: 'within the skip window the tooltip hovered or focused is the one that opens',
      holds: (f) =>
        !(f.before?.value === 'skipping' && (isEvent(f, 'POINTER_ENTER') || isEvent(f, 'FOCUS'))) ||
        ctx<TooltipContext>(f.after)!.activeId === (f.step!.event as unknown as { id: string }).id,
    },
    {
      says: 'closing the open tooltip (leaving, blurring, clicking or scrolling it, or Escape) starts the skip window',
      holds: (f) => {
        const id = (f.step?.event as { id?: string } | undefined)?.id
        const closes =
          (f.before?.value === 'delayed-open' || f.before?.value === 'instant-open') &&
          f.step?.kind === 'event' &&
          (f.step.event.type === 'ESCAPE' ||
            (['POINTER_LEAVE', 'BLUR', 'CLICK', 'SCROLL'].includes(f.step.event.type) &&
              id === ctx<TooltipContext>(f.before)!.activeId))
        return !closes || (f.after.value === 'skipping' && ctx<TooltipContext>(f.after)!.activeId === null)
      },
    },
    {
      says: 'leaving, blurring, clicking or scrolling another tooltip than the active one changes nothing',
      holds: (f) => {
        const id = (f.step?.event as { id?: string } | undefined)?.id
        const other =
          f.step?.kind === 'event' &&
          ['POINTER_LEAVE', 'BLUR', 'CLICK', 'SCROLL'].includes(f.step.event.type) &&
          ctx<TooltipContext>(f.before)?.activeId !== null &&
          id !== ctx<TooltipContext>(f.before)?.activeId
        return !other || (f.after.value === f.before!.value && f.after.context === f.before!.context)
      },
    },
    {
      says: 'hovering the pending tooltip again (its wait goes on), or hovering or focusing the open one, keeps it as it is',
      holds: (f) => {
        const id = (f.step?.event as { id?: string } | undefined)?.id
        const again =
          (isEvent(f, 'POINTER_ENTER') &&
            f.before?.value === 'pending' &&
            id === ctx<TooltipContext>(f.before)!.activeId) ||
          ((isEvent(f, 'POINTER_ENTER') || isEvent(f, 'FOCUS')) &&
            (f.before?.value === 'delayed-open' || f.before?.value === 'instant-open') &&
            id === ctx<TooltipContext>(f.before)!.activeId)
        return !again || (f.after.value === f.before!.value && f.after.context === f.before!.context)
      },
    },
    {
      says: 'the skip window ends closed',
      holds: (f) =>
        !(f.step?.kind === 'delay' && f.before?.value === 'skipping') || f.after.value === 'closed',
    },
    {
      says: 'a tooltip that closes says why',
      holds: (f) =>
        !(open(f.before).length === 1 && open(f.after).length === 0) ||
        ctx<TooltipContext>(f.after)!.lastCloseReason !== null,
    },
  ],
}

// --- visitor sync (spec points 4 and 7: a failed send is retried after 3 s) ----------------------

const record = (updatedAt: number): VisitorRecord => ({
  userId: 'u-1',
  anonymousId: 'a-1',
  session: { id: 's-1', paid: false, urlParams: {} },
  urlParams: {},
  updatedAt,
})
const sync = (s: AnyMachineSnapshot | null) => ctx<VisitorSyncContext>(s)!

export const visitorSyncModel: MachineModel = {
  name: 'visitor-sync',
  equivalentMutants: {
    'sending —invoke.onDone #1→ idle (was sending)':
      'idle sends at once when a change is unsent (its eventless transition): the same next send',
    'sending —invoke.onDone #1→ waiting (was sending)':
      'waiting sends at once when a change is unsent (its eventless transition): the same next send',
  },
  title: 'visitor sync (engine/visitor-sync/visitor-sync-machine.ts)',
  machine: visitorSyncMachine,
  starts: [{ name: 'known visitor', input: () => ({ record: record(MODEL_T0 - S) }) }],
  payloads: {
    CHANGE: (_, now) => [{ type: 'CHANGE', record: record(now) }],
    REMOTE: (_, now) => [
      { type: 'REMOTE', record: record(now + 1) },
      { type: 'REMOTE', record: record(0) },
    ],
  },
  describe: (e) =>
    e.type === 'CHANGE'
      ? 'change here'
      : e.type === 'REMOTE'
        ? `${(e as unknown as { record: VisitorRecord }).record.updatedAt === 0 ? 'older' : 'newer'} change from another tab`
        : undefined,
  outcomes: {
    postRecord: [
      { name: 'stored', output: () => ({ ok: true }) },
      { name: 'network down', error: 'network down' },
    ],
  },
  effects: ['broadcast', 'recordChanged'],
  key: (s) => {
    const c = s.context as VisitorSyncContext
    return [c.version > c.inFlightVersion, c.inFlightVersion > c.sentVersion, Math.min(c.failures, 2)]
  },
  promises: [
    {
      says: 'after a failed send with nothing newer, nothing is sent until the retry',
      holds: (f) =>
        f.step?.kind !== 'error' ||
        sync(f.before).version !== sync(f.before).inFlightVersion ||
        f.after.value === 'waiting',
    },
    {
      says: 'a failed send is retried after 3 s',
      holds: (f) =>
        f.step?.kind !== 'delay' ||
        (f.step.delay === VISITOR_SYNC_RETRY_MS &&
          f.before?.value === 'waiting' &&
          of(f, 'postRecord').length === 1),
    },
    {
      says: 'a success with nothing newer to send stops (no timer, no send until the next change)',
      holds: (f) => f.after.value !== 'idle' || sync(f.after).version === sync(f.after).sentVersion,
    },
    {
      says: 'only the newest record is sent',
      holds: (f) =>
        of(f, 'postRecord').every(
          (e) => (e.detail as { record: VisitorRecord }).record === sync(f.after).record,
        ),
    },
    {
      says: 'every change here is broadcast to the other tabs once',
      holds: (f) =>
        !isEvent(f, 'CHANGE') ||
        (of(f, 'broadcast').length === 1 &&
          (of(f, 'broadcast')[0].detail as { record: VisitorRecord }).record ===
            (f.step!.event as { record?: VisitorRecord }).record),
    },
    {
      says: "another tab's change is never broadcast back",
      holds: (f) => !isEvent(f, 'REMOTE') || of(f, 'broadcast').length === 0,
    },
    {
      says: 'an older change from another tab is ignored',
      holds: (f) =>
        !isEvent(f, 'REMOTE') ||
        (f.step!.event as unknown as { record: VisitorRecord }).record.updatedAt !== 0 ||
        sync(f.after).record === sync(f.before).record,
    },
    {
      says: 'every change, here or newer from another tab, is shown on the page once, with its source',
      holds: (f) => {
        const remote = isEvent(f, 'REMOTE')
        if (!isEvent(f, 'CHANGE') && !remote) return true
        const rec = (f.step!.event as unknown as { record: VisitorRecord }).record
        const told = of(f, 'recordChanged')
        if (remote && rec.updatedAt === 0) return told.length === 0
        const d = told[0]?.detail as { record: VisitorRecord; source: string } | undefined
        return told.length === 1 && d!.record === rec && d!.source === (remote ? 'remote' : 'local')
      },
    },
    {
      says: 'a newer change from another tab leaves nothing to send here (that tab sends it): the sync rests',
      holds: (f) =>
        !isEvent(f, 'REMOTE') ||
        (f.step!.event as unknown as { record: VisitorRecord }).record.updatedAt === 0 ||
        (f.after.value === 'idle' && of(f, 'postRecord').length === 0),
    },
    {
      says: 'a record is sent only when it holds a change not yet sent',
      holds: (f) =>
        of(f, 'postRecord').length === 0 || sync(f.after).inFlightVersion > sync(f.after).sentVersion,
    },
    {
      says: 'a success marks what was sent as acknowledged and clears the failures',
      holds: (f) =>
        f.step?.kind !== 'done' ||
        (sync(f.after).sentVersion === sync(f.before).inFlightVersion && sync(f.after).failures === 0),
    },
    {
      says: 'waiting to retry only after a failure',
      holds: (f) => f.after.value !== 'waiting' || sync(f.after).failures > 0,
    },
  ],
}

// --- build check (spec points 4, 7, 8: every 5 min; reload guard 10 s) --------------------------

type BuildContext = {
  buildId: string
  latestId: string | null
  chunkFailed: boolean
  lastReloadAt: number | null
}
const build = (s: AnyMachineSnapshot | null) => ctx<BuildContext>(s)!

export const buildCheckModel: MachineModel = {
  name: 'build-check',
  title: 'build check (engine/build-check/build-check-machine.ts)',
  machine: buildCheckMachine,
  starts: [
    { name: 'first load', input: (now) => ({ buildId: 'b1', lastReloadAt: null, now }) },
    {
      name: 'just reloaded',
      input: (now) => ({ buildId: 'b1', lastReloadAt: MODEL_T0 - RELOAD_GUARD_MS / 2, now }),
    },
  ],
  payloads: { NAVIGATE: () => [{ type: 'NAVIGATE', url: '/next-page' }] },
  outcomes: {
    fetchLatest: [
      { name: 'same build', output: () => ({ id: 'b1' }) },
      { name: 'new build b2', output: () => ({ id: 'b2' }) },
      { name: 'offline', error: 'offline' },
    ],
  },
  effects: ['reload'],
  key: (s, now) => {
    const c = s.context as BuildContext
    return [c.latestId, c.chunkFailed, reloadAllowed(c.lastReloadAt, now)]
  },
  promises: [
    {
      says: 'the build is checked every 5 minutes',
      holds: (f) =>
        f.step?.kind !== 'delay' ||
        (f.step.delay === BUILD_CHECK_INTERVAL_MS && of(f, 'fetchLatest').length === 1),
    },
    {
      says: 'a failed chunk checks for a new build at once',
      holds: (f) =>
        !(isEvent(f, 'CHUNK_FAILED') && f.before?.value === 'idle') || of(f, 'fetchLatest').length === 1,
    },
    {
      says: 'a page reloads only after a chunk failed and a newer build is out, and only once',
      holds: (f) =>
        of(f, 'reload').length === 0 ||
        (build(f.before).chunkFailed &&
          build(f.before).latestId !== build(f.before).buildId &&
          f.allEffects.filter((e) => e.name === 'reload').length === 1),
    },
    {
      says: 'the reload goes to the page the visitor navigated to',
      holds: (f) =>
        of(f, 'reload').every(
          (e) => (e.detail as { url: string }).url === (f.step?.event as { url?: string } | undefined)?.url,
        ),
    },
    {
      says: 'asking for a check while idle checks at once',
      holds: (f) => !(isEvent(f, 'CHECK') && f.before?.value === 'idle') || of(f, 'fetchLatest').length === 1,
    },
    {
      says: 'a failed chunk is remembered',
      holds: (f) => !isEvent(f, 'CHUNK_FAILED') || build(f.after).chunkFailed,
    },
    {
      says: 'a new build is one the server named, other than ours (the same build or a failed check waits)',
      holds: (f) =>
        f.after.value !== 'newBuild' ||
        (build(f.after).latestId !== null && build(f.after).latestId !== build(f.after).buildId),
    },
    {
      says: 'deciding to reload reloads the page',
      holds: (f) =>
        f.after.value !== 'reloading' || f.before?.value === 'reloading' || of(f, 'reload').length === 1,
    },
    {
      says: 'no reload within 10 s of the last one',
      holds: (f) => of(f, 'reload').length === 0 || reloadAllowed(build(f.before).lastReloadAt, f.now),
    },
  ],
}

// --- content-factory run (CONTROL-CENTER §5: one automatic repair) --------------------------------

const draft = { title: 'T', description: 'D', carrier: 'Humana', slug: 'humana-t', body: ['# T'] }
const answer = (text: string) => () => ({ text, model: 'm', promptTokens: 10, completionTokens: 5 })
const run = (s: AnyMachineSnapshot | null) => ctx<RunContext>(s)!

const RUN_PROMPT = buildMessages({ id: 'a', name: 'A', bio: 'B.' }, { topic: 't' }, [])

export const contentRunModel: MachineModel = {
  name: 'content-run',
  title: 'content-factory run (engine/control-center/content-factory/run-machine.ts)',
  machine: runMachine,
  starts: [
    {
      name: 'queued run',
      input: () => ({ messages: RUN_PROMPT }),
    },
  ],
  outcomes: {
    generate: [
      { name: 'a usable draft', output: answer(JSON.stringify(draft)) },
      { name: 'not JSON', output: answer('Sorry, here is an article: …') },
      { name: 'provider error', error: 'the provider answered 500' },
    ],
    validate: [
      { name: 'no problems', output: () => ({ errors: [], warnings: ['a claim to check'] }) },
      { name: 'a problem', output: () => ({ errors: ['/slug is taken'], warnings: [] }) },
      { name: 'validator failed', error: 'the dry build failed' },
    ],
  },
  key: (s) => {
    const c = s.context as RunContext
    return [c.attempt, c.draft !== null, c.validation?.errors.length ?? null, c.error]
  },
  promises: [
    {
      says: `the model is asked at most ${MAX_REPAIRS + 1} times (one repair)`,
      holds: (f) => f.allEffects.filter((e) => e.name === 'generate').length <= MAX_REPAIRS + 1,
    },
    {
      says: 'a repair sends the problems back to the model',
      holds: (f) => {
        const asks = f.allEffects.filter((e) => e.name === 'generate')
        const sizes = asks.map((e) => (e.detail as { messages: ChatMessage[] }).messages.length)
        return sizes.length < 2 || sizes[1] > sizes[0]
      },
    },
    {
      says: 'a run succeeds only with a parsed draft that has no problems',
      holds: (f) =>
        f.after.value !== 'succeeded' ||
        (run(f.after).draft !== null &&
          run(f.after).validation?.errors.length === 0 &&
          run(f.after).error === null),
    },
    {
      says: 'a failed or cancelled run says why',
      holds: (f) => !['failed', 'cancelled'].includes(String(f.after.value)) || Boolean(run(f.after).error),
    },
    {
      says: 'a run is cancelled only by staff (a provider error, a validator error or a second unusable answer fails it)',
      holds: (f) =>
        f.after.value !== 'cancelled' ||
        f.before?.value === 'cancelled' ||
        (isEvent(f, 'CANCEL') && run(f.after).error === 'cancelled by staff'),
    },
    {
      says: 'a server stop ends a running run as failed, saying the server stopped',
      holds: (f) =>
        !isEvent(f, 'SERVER_STOP') ||
        f.before?.status === 'done' ||
        (f.after.value === 'failed' && run(f.after).error === SERVER_STOPPED_ERROR),
    },
    {
      says: 'a provider or validator error fails the run with its message',
      holds: (f) =>
        f.step?.kind !== 'error' ||
        (f.after.value === 'failed' &&
          run(f.after).error === String((f.step.event as { error?: Error }).error?.message)),
    },
    {
      says: 'starting a run asks the model at once, and a started run never goes back to the queue',
      holds: (f) =>
        (!isEvent(f, 'START') ||
          f.before?.value !== 'queued' ||
          (of(f, 'generate').length === 1 &&
            (of(f, 'generate')[0].detail as { messages: ChatMessage[] }).messages === RUN_PROMPT)) &&
        (f.after.value !== 'queued' || f.before === null || f.before.value === 'queued'),
    },
    {
      says: 'an ended run stays ended',
      holds: (f) => f.before?.status !== 'done' || f.after.value === f.before.value,
    },
  ],
}

// --- event maintenance (docs/decisions/0311, 0312, 0810: partitions and answers' lifetime at start and
// hourly, rollups every 5 s) --

/**
 * The model runs partition maintenance every 3 rollup intervals and the answers' lifetime every 2
 * instead of every hour (720 of them), so the graph stays small; the machine takes the intervals from
 * its input, the server the constants.
 */
const MODEL_PARTITION_MS = 3 * ROLLUP_INTERVAL_MS
const MODEL_ANSWERS_MS = 2 * ROLLUP_INTERVAL_MS
const STEPS = ['partitions', 'rollups', 'answers'] as const
const inStep = (s: AnyMachineSnapshot | null) => !!s && STEPS.some((step) => s.matches(step))
const stopAsked = (s: AnyMachineSnapshot | null) =>
  !!s && (s.status === 'done' || STEPS.some((step) => s.matches({ [step]: 'stopping' })))
const started = (f: StepFacts) => STEPS.flatMap((step) => of(f, step))

export const eventMaintenanceModel: MachineModel = {
  name: 'event-maintenance',
  title: 'events table maintenance (engine/events/event-maintenance-machine.ts)',
  machine: eventMaintenanceMachine,
  starts: [
    {
      name: 'server start',
      input: (now) => ({
        now,
        rollupMs: ROLLUP_INTERVAL_MS,
        partitionMs: MODEL_PARTITION_MS,
        answersMs: MODEL_ANSWERS_MS,
      }),
    },
  ],
  outcomes: {
    partitions: [
      { name: 'done', output: () => undefined },
      { name: 'database down', error: 'database down' },
    ],
    rollups: [
      { name: 'done', output: () => undefined },
      { name: 'database down', error: 'database down' },
    ],
    answers: [
      { name: 'done', output: () => undefined },
      { name: 'database down', error: 'database down' },
    ],
  },
  effects: ['stepFailed'],
  equivalentMutants: {
    // Answers are the last step by priority: when one ends, nothing else is due in the model's time,
    // and in real time waiting waits 0 ms for a step that fell due meanwhile.
    'answers —invoke.onDone #2→ waiting (was choosing)':
      'waiting waits until the next due step, 0 ms when one is due: the same steps at the same times',
    'answers —invoke.onError #2→ waiting (was choosing)':
      'waiting waits until the next due step, 0 ms when one is due: the same steps at the same times',
  },
  key: (s, now) => {
    const c = s.context as EventMaintenanceContext
    return [c.partitionsDueAt - now, c.rollupsDueAt - now, c.answersDueAt - now]
  },
  promises: [
    {
      says: 'partition maintenance runs at start',
      holds: (f) => f.step !== null || (of(f, 'partitions').length === 1 && f.after.matches('partitions')),
    },
    {
      says: 'never two steps at once',
      holds: (f) =>
        Object.keys(f.after.children).length <= 1 &&
        started(f).length <= 1 &&
        (started(f).length === 0 || !inStep(f.before) || f.step?.kind === 'done' || f.step?.kind === 'error'),
    },
    {
      says: `partition maintenance runs every ${PARTITION_MAINTENANCE_MS / 60_000} min (here ${MODEL_PARTITION_MS / S} s), on time`,
      holds: (f) => of(f, 'partitions').every((e) => (e.at - MODEL_T0) % MODEL_PARTITION_MS === 0),
    },
    {
      says: 'expired answers are deleted at start, right after partition maintenance',
      holds: (f) =>
        !(f.step?.kind === 'done' || f.step?.kind === 'error') ||
        f.step.src !== 'partitions' ||
        f.now !== MODEL_T0 ||
        stopAsked(f.before) ||
        !!f.after.matches('answers'),
    },
    {
      says: `expired answers are deleted every ${ANSWERS_MAINTENANCE_MS / 60_000} min (here ${MODEL_ANSWERS_MS / S} s), on time`,
      holds: (f) => of(f, 'answers').every((e) => (e.at - MODEL_T0) % MODEL_ANSWERS_MS === 0),
    },
    {
      says: `rollups catch up every ${ROLLUP_INTERVAL_MS / S} s, on time`,
      holds: (f) =>
        of(f, 'rollups').every((e) => e.at > MODEL_T0 && (e.at - MODEL_T0) % ROLLUP_INTERVAL_MS === 0),
    },
    {
      says: 'no step is missed: the machine never waits past a due step',
      holds: (f) => {
        if (f.after.value !== 'waiting') return true
        const c = f.after.context as EventMaintenanceContext
        return c.partitionsDueAt > f.now && c.rollupsDueAt > f.now && c.answersDueAt > f.now
      },
    },
    {
      says: 'a failed step is logged once',
      holds: (f) =>
        of(f, 'stepFailed').length === (f.step?.kind === 'error' ? 1 : 0) &&
        of(f, 'stepFailed').every((e) => (e.detail as { step: string }).step === f.step?.src),
    },
    {
      says: 'a failure does not stop the schedule',
      holds: (f) => f.step?.kind !== 'error' || stopAsked(f.before) || f.after.status === 'active',
    },
    {
      says: 'STOP while waiting stops at once',
      holds: (f) => !(isEvent(f, 'STOP') && f.before?.value === 'waiting') || f.after.status === 'done',
    },
    {
      says: 'each step runs once per due time (its next due time moves on when it ends, failed or not)',
      holds: (f) =>
        STEPS.every((step) => {
          const at = f.allEffects.filter((e) => e.name === step).map((e) => e.at)
          return new Set(at).size === at.length
        }),
    },
    {
      says: 'STOP during a step waits for it to end',
      holds: (f) => !(isEvent(f, 'STOP') && inStep(f.before)) || stopAsked(f.after),
    },
    {
      says: 'after stop no step starts',
      holds: (f) => !stopAsked(f.before) || (started(f).length === 0 && stopAsked(f.after)),
    },
    {
      says: 'stopped only after STOP, with no step under way',
      holds: (f) =>
        f.after.status !== 'done' ||
        (Object.keys(f.after.children).length === 0 && (stopAsked(f.before) || isEvent(f, 'STOP'))),
    },
  ],
}

export const MACHINE_MODELS: MachineModel[] = [
  leaseModel,
  eventMaintenanceModel,
  tooltipModel,
  visitorSyncModel,
  buildCheckModel,
  contentRunModel,
  ...CC_MACHINE_MODELS,
]
