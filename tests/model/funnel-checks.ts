/**
 * The funnel model's checks besides its paths, for one funnel on one page: where a known step starts,
 * what an on-submit "stay" does, what an invalid submit on each step shows. The model test
 * (funnel.model.test.ts) runs them on the funnel machine; `npm run mutants` on each broken copy of it.
 */
import { expect } from 'vitest'
import { formVersionBucketKey, SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import { FORM_STEP_SUBMITTED, type FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { MODEL_DEMAND } from '../../engine/funnel/funnel-graph'
import { stepUrl } from '../../engine/funnel/funnel-location'
import { type FunnelMachine, funnelMachine } from '../../engine/funnel/funnel-machine'
import { actionList, planActions } from '../../engine/funnel/run-actions'
import { invalidStepValues, validStepValues } from '../../engine/funnel/sample-values'
import { emptiedValues, stepValues } from '../../engine/funnel/validate-field'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { FakeBrowser } from './fake-browser'
import { MODEL_BASE as BASE, MODEL_QUERY as QUERY } from './funnel-paths'
import { funnelActor, settled, stepNameOf } from './replay-path'

/** The same funnel with its first step's on-submit returning false (the spec's "stay"). */
function withStayOnFirst(funnel: ResolvedFunnel): ResolvedFunnel {
  return {
    ...funnel,
    steps: funnel.steps.map((s, i) => (i === 0 ? { ...s, onSubmit: { type: 'stay' } } : s)),
  }
}

type Check = (funnel: ResolvedFunnel, page: FunnelPageInfo, machine?: FunnelMachine) => Promise<void>

async function startsOnKnownStep(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  const last = funnel.steps.at(-1)!.name
  const browser = new FakeBrowser(stepUrl(BASE, last, QUERY))
  const actor = funnelActor(browser, machine, {
    input: { funnel, page, stepParam: last, basePath: BASE, search: QUERY },
  }).start()
  await settled(actor)
  expect(actor.getSnapshot().value).toBe('showing')
  expect(browser.replaced).toBe(0)
  expect(browser.url).toBe(stepUrl(BASE, last, QUERY))
  expect(browser.emitted[0]).toEqual({
    kind: 'pageView',
    page: { name: page.name, template: page.template, stepName: last },
  })
  expect(actor.getSnapshot().context.stepIndex).toBe(funnel.steps.length - 1)
  actor.stop()
}

async function staysOnFalse(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  const first = funnel.steps[0].name
  const stay = withStayOnFirst(funnel)
  const browser = new FakeBrowser(stepUrl(BASE, first, QUERY))
  const actor = funnelActor(browser, machine, {
    input: { funnel: stay, page, stepParam: first, basePath: BASE, search: QUERY },
  }).start()
  await settled(actor)
  expect(actor.getSnapshot().value).toBe('showing')
  const values = validStepValues(stay.steps[0].fields)
  actor.send({ type: 'SUBMIT', values })
  await settled(actor)
  expect(actor.getSnapshot().value).toBe('showing')
  expect(actor.getSnapshot().context.stepIndex).toBe(0)
  expect(browser.url).toBe(stepUrl(BASE, first, QUERY))
  expect(browser.pushed).toBe(0)
  expect(browser.emitted.filter((e) => e.kind === 'track' && e.event === FORM_STEP_SUBMITTED)).toHaveLength(1)
  expect(browser.store.get(formVersionBucketKey(funnel.formVersion))).toMatchObject(values)
  expect(browser.store.get(SHARED_BUCKET_KEY)).toMatchObject(values)
  actor.stop()
}

async function invalidSubmitShowsMessages(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  machine = funnelMachine,
) {
  for (const [i, step] of funnel.steps.entries()) {
    const invalid = invalidStepValues(step.fields)
    if (!invalid) continue
    const browser = new FakeBrowser(stepUrl(BASE, step.name))
    const actor = funnelActor(browser, machine, {
      input: { funnel, page, stepParam: step.name, basePath: BASE, search: '' },
    }).start()
    await settled(actor)
    expect(actor.getSnapshot().value).toBe('showing')
    actor.send({ type: 'SUBMIT', values: invalid })
    const ctx = actor.getSnapshot().context
    expect(ctx.stepIndex).toBe(i)
    const messages = Object.values(ctx.errors).filter(Boolean)
    expect(messages.length).toBeGreaterThan(0)
    for (const m of messages) expect(m).not.toMatch(/must match|pattern|undefined|NaN/)
    actor.stop()
  }
}

/** The funnel started at step `at` (by name; undefined for none), settled on a shown step. */
async function started(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  machine: FunnelMachine,
  at: string | undefined,
) {
  const url = `${at === undefined ? BASE : stepUrl(BASE, at)}${QUERY}`
  const browser = new FakeBrowser(url)
  const actor = funnelActor(browser, machine, {
    input: { funnel, page, stepParam: at, basePath: BASE, search: QUERY },
  })
  browser.onPop = (entry) =>
    actor.send({ type: 'POPSTATE', step: stepNameOf(entry.url, BASE), depth: entry.depth })
  actor.start()
  await settled(actor)
  expect(actor.getSnapshot().value).toBe('showing')
  return { browser, actor }
}

async function backToNoStep(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  const first = funnel.steps[0]
  // Opened at no step (redirected to the first, keeping the query string).
  const { browser, actor } = await started(funnel, page, machine, undefined)
  actor.send({ type: 'SUBMIT', values: validStepValues(first.fields) })
  await settled(actor)
  expect(browser.pushed).toBe(actor.getSnapshot().context.stepIndex > 0 ? 1 : 0)
  // A funnel whose first answer ends it (or stays) has no later step to go back from.
  if (actor.getSnapshot().status === 'done' || actor.getSnapshot().context.stepIndex === 0) {
    actor.stop()
    return
  }
  const { emitted, replaced } = { emitted: browser.emitted.length, replaced: browser.replaced }
  // The browser went back to an entry whose URL names no step of the funnel (a link from elsewhere).
  actor.send({ type: 'POPSTATE', step: undefined, depth: 0 })
  await settled(actor)
  const snap = actor.getSnapshot()
  expect(snap.value).toBe('showing')
  expect(snap.context.stepIndex).toBe(0)
  expect(snap.context.depth).toBe(0)
  // Moving within the funnel drops the query string, as advancing does.
  expect(browser.replaced).toBe(replaced + 1)
  expect(browser.url).toBe(stepUrl(BASE, first.name))
  expect(browser.emitted.slice(emitted)[0]).toEqual({
    kind: 'pageView',
    page: { name: page.name, template: page.template, stepName: first.name },
  })
  actor.stop()
}

async function ignoredMoves(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  // The form's Back on the first step, with no history behind it.
  const at = await started(funnel, page, machine, funnel.steps[0].name)
  const emitted = at.browser.emitted.length
  at.actor.send({ type: 'BACK' })
  await settled(at.actor)
  expect(at.actor.getSnapshot().context.stepIndex).toBe(0)
  expect(at.browser.emitted.length).toBe(emitted)
  expect(at.browser.url).toBe(stepUrl(BASE, funnel.steps[0].name, QUERY))
  at.actor.stop()
  // Skip on each step that is not skippable.
  for (const step of funnel.steps.filter((s) => !s.skippable)) {
    const { browser, actor } = await started(funnel, page, machine, step.name)
    const before = {
      emitted: browser.emitted.length,
      url: browser.url,
      index: actor.getSnapshot().context.stepIndex,
    }
    actor.send({ type: 'SKIP' })
    await settled(actor)
    expect(actor.getSnapshot().value).toBe('showing')
    expect(actor.getSnapshot().context.stepIndex).toBe(before.index)
    expect(browser.emitted.length).toBe(before.emitted)
    expect(browser.url).toBe(before.url)
    expect(browser.store.size).toBe(0)
    actor.stop()
  }
}

async function answerWhileEntering(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  for (const step of funnel.steps) {
    if (actionList(step.onEnter).length === 0) continue
    // Only a step its on-enter actions leave shown (no move elsewhere).
    const outcome = planActions(step.onEnter, { values: {}, demand: null }, MODEL_DEMAND).outcome.kind
    if (outcome !== 'continue' && outcome !== 'stay') continue
    const browser = new FakeBrowser(stepUrl(BASE, step.name, QUERY))
    const actor = funnelActor(browser, machine, {
      input: { funnel, page, stepParam: step.name, basePath: BASE, search: QUERY },
    }).start()
    // The visitor answers while the step's on-enter actions (a demand check) still run.
    const values = validStepValues(step.fields)
    actor.send({ type: 'SUBMIT', values })
    await settled(actor)
    const submitted = browser.emitted.filter((e) => e.kind === 'track' && e.event === FORM_STEP_SUBMITTED)
    expect(submitted).toHaveLength(1)
    expect(submitted[0]).toMatchObject({ properties: { stepName: step.name } })
    expect(browser.store.get(SHARED_BUCKET_KEY)).toMatchObject(stepValues(step.fields, values))
    actor.stop()
  }
}

async function typing(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  const step = funnel.steps.find((s) => invalidStepValues(s.fields)) ?? funnel.steps[0]
  const { browser, actor } = await started(funnel, page, machine, step.name)
  const invalid = invalidStepValues(step.fields)
  if (invalid) actor.send({ type: 'SUBMIT', values: invalid })
  const valid = validStepValues(step.fields)
  for (const name of Object.keys(valid) as (keyof typeof valid)[]) {
    actor.send({ type: 'CHANGE', name, value: valid[name] as string | boolean })
    const ctx = actor.getSnapshot().context
    expect(ctx.values[name]).toBe(valid[name])
    expect(ctx.errors[name]).toBeUndefined()
    expect(browser.changes.at(-1)).toEqual([name])
  }
  actor.stop()
}

async function skipping(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  for (const [i, step] of funnel.steps.entries()) {
    if (!step.skippable) continue
    const { browser, actor } = await started(funnel, page, machine, step.name)
    // An answer typed, then the step skipped: its answers are emptied, stored and reported.
    const valid = validStepValues(step.fields)
    for (const name of Object.keys(valid) as (keyof typeof valid)[])
      actor.send({ type: 'CHANGE', name, value: valid[name] as string | boolean })
    actor.send({ type: 'SKIP' })
    await settled(actor)
    const data = stepValues(step.fields, emptiedValues(step.fields))
    const submitted = browser.emitted.filter((e) => e.kind === 'track' && e.event === FORM_STEP_SUBMITTED)
    expect(submitted).toEqual([
      {
        kind: 'track',
        event: FORM_STEP_SUBMITTED,
        properties: { formVersion: funnel.formVersion, stepName: step.name, stepNumber: i + 1, data },
      },
    ])
    expect(browser.store.get(SHARED_BUCKET_KEY)).toMatchObject(data)
    const values = { ...actor.getSnapshot().context.values }
    const stays = planActions(step.onSubmit, { values, demand: null }, MODEL_DEMAND).outcome.kind === 'stay'
    const snap = actor.getSnapshot()
    if (!stays) expect(snap.status === 'done' || snap.context.stepIndex !== i, 'skipping moves on').toBe(true)
    actor.stop()
  }
}

async function brokenAction(funnel: ResolvedFunnel, page: FunnelPageInfo, machine = funnelMachine) {
  if (funnel.steps.length < 2) return
  // The first step's on-submit action fails (a tracker that throws): the visitor is not trapped.
  const broken = {
    ...funnel,
    steps: funnel.steps.map((s, i) =>
      i === 0 ? { ...s, onSubmit: { type: 'track' as const, event: 'brokenAction' } } : s,
    ),
  }
  const first = funnel.steps[0].name
  const browser = new FakeBrowser(stepUrl(BASE, first, QUERY))
  const deps = browser.deps()
  const track = deps.emitter.track
  deps.emitter = {
    ...deps.emitter,
    track: (event, properties) => {
      if (event === 'brokenAction') throw new Error('the tracker failed')
      track(event, properties)
    },
  }
  const actor = funnelActor(
    browser,
    machine,
    { input: { funnel: broken, page, stepParam: first, basePath: BASE, search: QUERY } },
    deps,
  ).start()
  await settled(actor)
  actor.send({ type: 'SUBMIT', values: validStepValues(funnel.steps[0].fields) })
  await settled(actor)
  const snap = actor.getSnapshot()
  expect(snap.value).toBe('showing')
  expect(snap.context.stepIndex).toBe(1)
  expect(browser.url).toBe(stepUrl(BASE, funnel.steps[1].name))
  expect(browser.emitted.at(-1)).toMatchObject({ kind: 'pageView', page: { stepName: funnel.steps[1].name } })
  actor.stop()
}

/** Each check by the title the model test gives it. */
export const FUNNEL_CHECKS: { title: string; run: Check }[] = [
  {
    title: 'starting on a known step keeps the URL and its query, and views that step',
    run: startsOnKnownStep,
  },
  {
    title: 'on-submit returning false stores and reports the step but does not advance',
    run: staysOnFalse,
  },
  {
    title: 'an invalid submit on every step shows human messages and does not advance',
    run: invalidSubmitShowsMessages,
  },
  {
    title: 'a browser back to a URL naming no step of the funnel shows the first step, under its URL',
    run: backToNoStep,
  },
  {
    title:
      "skipping a step that is not skippable, or the form's Back on the first step with no history, does nothing",
    run: ignoredMoves,
  },
  {
    title: 'skipping a skippable step empties, stores and reports its answers, then moves on',
    run: skipping,
  },
  {
    title: 'an on-submit action that fails does not trap the visitor: the funnel carries on',
    run: brokenAction,
  },
  {
    title: 'typing records each answer and tells the page at once, clearing its message',
    run: typing,
  },
  {
    title: "an answer given while a step's on-enter actions run is handled once the step shows",
    run: answerWhileEntering,
  },
]
