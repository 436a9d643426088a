/**
 * Replays one graph path against a real actor of the funnel machine with a FakeBrowser, checking
 * after every stable step that the actor is where the graph says and the invariants hold.
 */

import { expect } from 'vitest'
import { type Actor, type AnyActorRef, createActor } from 'xstate'
import { formVersionBucketKey, SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import { FORM_STEP_SUBMITTED, FUNNEL_COMPLETED, type FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { type GraphEvent, MODEL_DEMAND } from '../../engine/funnel/funnel-graph'
import { stepUrl } from '../../engine/funnel/funnel-location'
import {
  type FunnelContext,
  type FunnelInput,
  type FunnelMachine,
  type FunnelMachineInput,
  funnelMachine,
  funnelMachineWith,
  progressOf,
} from '../../engine/funnel/funnel-machine'
import { planActions } from '../../engine/funnel/run-actions'
import { emptiedValues, stepValues } from '../../engine/funnel/validate-field'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import type { ValidationMessages } from '../../schemas/generated/ui-text'
import { type Emitted, FakeBrowser } from './fake-browser'

export interface GraphPath {
  steps: {
    state: { value: unknown; context: FunnelContext; status: string }
    event: GraphEvent | { type: string }
  }[]
}

const stable = (s: { status: string; value: unknown }) =>
  s.status === 'done' || (s.status === 'active' && s.value === 'showing')

/**
 * Waits until the funnel shows a step or has ended. Its only async work is its actions' promises
 * (the fake browser answers at once), so once the pending work has run it is there or it is stuck:
 * a stuck actor (a broken copy in `npm run mutants`) fails, naming where it stopped.
 */
/**
 * An actor of the machine on the fake browser. An error inside it (a broken copy's, in `npm run
 * mutants`) stops it with status "error", which `settled` reports, instead of being thrown later.
 */
export function funnelActor(
  browser: FakeBrowser,
  machine: FunnelMachine,
  options: { input: FunnelMachineInput },
  deps = browser.deps(),
): Actor<ReturnType<typeof funnelMachineWith>> {
  const actor = createActor(funnelMachineWith(deps, machine), options)
  actor.subscribe({ error: () => {} })
  return actor
}

export async function settled(actor: AnyActorRef): Promise<void> {
  for (let i = 0; i < 10 && !stable(actor.getSnapshot()); i++)
    await new Promise((resolve) => setImmediate(resolve))
  const s = actor.getSnapshot()
  if (!stable(s))
    throw new Error(
      `the funnel stopped in ${JSON.stringify(s.value)} (${s.status}${s.error ? `: ${(s.error as Error).message}` : ''}), neither showing a step nor ended`,
    )
}

export function stepNameOf(url: string, basePath: string): string | undefined {
  const rest = url.split('?')[0].slice(basePath.length + 1)
  return rest === '' ? undefined : decodeURIComponent(rest)
}

export async function replayPath(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  input: FunnelInput,
  path: GraphPath,
  /** The funnel machine, or a broken copy of it (`npm run mutants`). */
  machine: FunnelMachine = funnelMachine,
): Promise<FakeBrowser> {
  const startUrl = `${input.stepParam === undefined ? input.basePath : stepUrl(input.basePath, input.stepParam)}${input.search}`
  const browser = new FakeBrowser(startUrl)
  const actor = funnelActor(browser, machine, { input: { ...input, funnel, page } })
  browser.onPop = (entry) =>
    actor.send({ type: 'POPSTATE', step: stepNameOf(entry.url, input.basePath), depth: entry.depth })
  const steps = funnel.steps
  const pageView = (i: number): Emitted => ({
    kind: 'pageView',
    page: { name: page.name, template: page.template, stepName: steps[i].name },
  })

  actor.start()
  await settled(actor)
  let snap = actor.getSnapshot()
  // Start: a missing or unknown step lands on the first step, replacing history, keeping the query.
  const known = steps.some((s) => s.name === input.stepParam)
  if (!known) {
    expect(browser.url).toBe(stepUrl(input.basePath, steps[0].name, input.search))
    expect(browser.historyLength).toBe(1)
    expect(browser.replaced).toBe(1)
  } else expect(browser.url).toBe(startUrl)
  expect(browser.emitted[0]).toEqual(pageView(snap.context.stepIndex))

  let cause: {
    event: GraphEvent
    before: FunnelContext
    emittedBefore: number
    urlBefore: string
    bucketsBefore: unknown
  } | null = null
  for (const { state: expected, event } of path.steps.slice(1)) {
    if (!event.type.startsWith('xstate.done.actor.')) {
      cause = {
        event: event as GraphEvent,
        before: actor.getSnapshot().context,
        emittedBefore: browser.emitted.length,
        urlBefore: browser.url,
        bucketsBefore: browser.store.get(formVersionBucketKey(funnel.formVersion)),
      }
    }
    // A completion (done event) happens inside the real actor on its own; it is compared below.
    if (event.type.startsWith('xstate.done.actor.')) {
    } else if (event.type === 'BACK' && cause?.before.depth) {
      // The form's Back button with history behind it is the browser's back.
      actor.send({ type: 'BACK' })
      await settled(actor)
    } else if (event.type === 'POPSTATE') {
      browser.back()
      expect(stepNameOf(browser.url, input.basePath)).toBe((event as { step: string }).step)
    } else actor.send(event as never)
    await settled(actor)
    snap = actor.getSnapshot()
    if (expected.status !== 'done' && !['showing'].includes(String(expected.value))) continue
    expect(snap.status).toBe(expected.status)
    expect(snap.value).toEqual(expected.value)
    const ctx = snap.context
    if (!cause) continue
    const { before, emittedBefore, urlBefore, bucketsBefore } = cause
    const delta = browser.emitted.slice(emittedBefore)
    // Where an accepted answer ends the funnel, by the step's on-submit actions (action.schema.json):
    // a page they go to, the destination when they finish or on the last step, or nowhere.
    const answered = cause.event.type === 'SUBMIT' || cause.event.type === 'SKIP'
    const ends = answered ? endOf(steps, before, cause.event) : null
    if (snap.status === 'done') {
      // Only an accepted answer ends the funnel, where its actions say: going back never does.
      expect(cause.event.type, 'the funnel ended on going back').toMatch(/^(SUBMIT|SKIP)$/)
      expect(ends, 'the funnel ended where its answer does not end it').not.toBeNull()
      expect(snap.value).toBe(ends!.state)
      expect(browser.left).toBe(ctx.exit)
      expect(browser.left).toBe(ends!.exit ?? page.destination)
      // Reaching the destination counts a lead, once.
      const leads = delta.filter((d) => d.kind === 'track' && d.event === FUNNEL_COMPLETED)
      expect(leads).toHaveLength(snap.value === 'finished' ? 1 : 0)
      continue
    }
    if (ends && Object.keys(ctx.errors).length === 0)
      expect.fail(
        `the answer on ${steps[before.stepIndex].name} ends the funnel (${ends.state}), yet it goes on`,
      )
    expect(ctx.stepIndex).toBe(expected.context.stepIndex)
    // Progress is step number over total, and the URL names the step shown.
    expect(progressOf(ctx)).toBe((ctx.stepIndex + 1) / steps.length)
    expect(stepNameOf(browser.url, input.basePath)).toBe(steps[ctx.stepIndex].name)

    const e = cause.event
    cause = null
    const submitted = e.type === 'SKIP' || (e.type === 'SUBMIT' && Object.keys(ctx.errors).length === 0)
    if (e.type === 'SUBMIT' && !submitted) {
      // Invalid: nothing emitted, stored or navigated; a message for each bad field.
      expect(delta).toEqual([])
      expect(browser.url).toBe(urlBefore)
      expect(ctx.stepIndex).toBe(before.stepIndex)
      expect(browser.store.get(formVersionBucketKey(funnel.formVersion))).toEqual(bucketsBefore)
      // Each message is one of the funnel's own (definitions/ui-text/<language>.json), filled in.
      const messages = messagePatterns(funnel.text.messages)
      for (const m of Object.values(ctx.errors))
        if (m)
          expect(
            messages.some((p) => p.test(m)),
            m,
          ).toBe(true)
      continue
    }
    if (submitted) {
      const step = steps[before.stepIndex]
      const data =
        e.type === 'SKIP'
          ? stepValues(step.fields, emptiedValues(step.fields))
          : stepValues(step.fields, { ...before.values, ...(e.type === 'SUBMIT' ? e.values : {}) })
      expect(delta[0]).toEqual({
        kind: 'track',
        event: FORM_STEP_SUBMITTED,
        properties: {
          formVersion: funnel.formVersion,
          stepName: step.name,
          stepNumber: before.stepIndex + 1,
          data,
        },
      })
      for (const key of [formVersionBucketKey(funnel.formVersion), SHARED_BUCKET_KEY])
        expect(browser.store.get(key)).toMatchObject(data)
      if (ctx.stepIndex !== before.stepIndex) {
        // Advanced: a new history entry without the query string, then the step's pageView.
        expect(browser.url).not.toContain('?')
        expect(browser.historyLength).toBeGreaterThan(1)
        expect(delta.at(-1)).toEqual(pageView(ctx.stepIndex))
      }
      continue
    }
    // BACK or POPSTATE: the earlier step is entered again and viewed again: the step before for the
    // form's Back with no history behind it, the step of the history entry for the browser's back.
    if (e.type === 'BACK' && !before.depth) expect(ctx.stepIndex).toBe(before.stepIndex - 1)
    if (e.type === 'POPSTATE')
      expect(steps[ctx.stepIndex].name).toBe((e as { step: string | undefined }).step ?? steps[0].name)
    expect(delta[0]).toEqual(pageView(ctx.stepIndex))
  }
  actor.stop()
  return browser
}

/** Where an accepted answer ends the funnel (the state and the page it leaves for), or null when it goes on. */
function endOf(
  steps: ResolvedFunnel['steps'],
  before: FunnelContext,
  event: GraphEvent,
): { state: 'finished' | 'left'; exit: string | null } | null {
  const step = steps[before.stepIndex]
  const values =
    event.type === 'SKIP'
      ? { ...before.values, ...emptiedValues(step.fields) }
      : { ...before.values, ...(event.type === 'SUBMIT' ? event.values : {}) }
  const { outcome } = planActions(step.onSubmit, { values, demand: before.demand }, MODEL_DEMAND)
  if (outcome.kind === 'go-to-page') return { state: 'left', exit: outcome.path }
  if (outcome.kind === 'finish') return { state: 'finished', exit: null }
  if (outcome.kind === 'continue' && before.stepIndex === steps.length - 1)
    return { state: 'finished', exit: null }
  return null
}

/** A pattern per message template: its words as written, any {placeholder} filled by something. */
function messagePatterns(templates: ValidationMessages): RegExp[] {
  return Object.values(templates).map(
    (t: string) =>
      new RegExp(
        `^${t
          .split(/\{\w+\}/)
          .map((part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+')}$`,
      ),
  )
}
