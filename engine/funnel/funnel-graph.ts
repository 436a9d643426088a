/**
 * The funnel machine's graph for one funnel, as @xstate/graph explores it: the event alphabet is a
 * function of the snapshot (STACK pitfall 9), so every state offers exactly the events a visitor or
 * the browser can cause there, and async completions are supplied from the pure action planner.
 */
import { initialTransition, transition, type Snapshot as XSnapshot } from 'xstate'
import { getShortestPaths, getSimplePaths } from 'xstate/graph'
import type { Condition } from '../../schemas/generated/condition'
import type { DemandCheckResult } from '../runtime-contracts'
import type { ResolvedFunnel } from '../snapshot/types'
import type { FunnelDeps, FunnelPageInfo } from './funnel-deps'
import {
  type FunnelContext,
  type FunnelEvent,
  type FunnelInput,
  type FunnelMachine,
  funnelMachine,
  funnelMachineWith,
} from './funnel-machine'
import { actionList, planActions } from './run-actions'
import { invalidStepValues, validStepValues } from './sample-values'

export const MODEL_DEMAND: DemandCheckResult = { bid: 25, isLowBid: false }

export type FunnelSnapshot = XSnapshot<unknown> & {
  context: FunnelContext
  value: unknown
  matches: (v: string) => boolean
  status: string
}
/** `note` names the kind of answer in test titles; the machine ignores it. */
export type GraphEvent =
  | (FunnelEvent & { note?: string })
  | { type: `xstate.done.actor.${string}`; output: unknown }

const noop = () => {}
const inertDeps: FunnelDeps = {
  emitter: { track: noop, pageView: noop },
  demandCheck: async () => null,
  storage: { read: () => ({}), write: noop },
  navigation: { replace: noop, push: noop, back: noop, leave: noop },
}

/** Fields any condition of the funnel looks at: the only answers that change where the funnel goes. */
export function conditionFields(funnel: ResolvedFunnel): string[] {
  const out = new Set<string>()
  const walk = (c: Condition | undefined) => {
    if (!c) return
    if ('field' in c) out.add(c.field)
    if (c.type === 'not') walk(c.condition)
    if (c.type === 'all' || c.type === 'any') c.conditions.forEach(walk)
  }
  for (const s of funnel.steps)
    for (const a of [...actionList(s.onEnter), ...actionList(s.onSubmit)]) if ('when' in a) walk(a.when)
  return [...out]
}

export function graphEvents(funnel: ResolvedFunnel) {
  return (snapshot: FunnelSnapshot): GraphEvent[] => {
    if (snapshot.status !== 'active') return []
    const ctx = snapshot.context
    const step = funnel.steps[ctx.stepIndex]
    const start = { values: ctx.values, demand: ctx.demand }
    if (snapshot.matches('entering'))
      return [{ type: 'xstate.done.actor.runEnter', output: planActions(step.onEnter, start, MODEL_DEMAND) }]
    if (snapshot.matches('submitting'))
      return [
        { type: 'xstate.done.actor.runSubmit', output: planActions(step.onSubmit, start, MODEL_DEMAND) },
      ]
    if (!snapshot.matches('showing')) return []
    const events: GraphEvent[] = [{ type: 'SUBMIT', values: validStepValues(step.fields, true) }]
    if (step.fields.some((f) => f.kind === 'yes-no'))
      events.push({ type: 'SUBMIT', values: validStepValues(step.fields, false), note: 'no' })
    const invalid = invalidStepValues(step.fields)
    if (invalid && Object.keys(ctx.errors).length === 0)
      events.push({ type: 'SUBMIT', values: invalid, note: 'invalid' })
    if (step.skippable) events.push({ type: 'SKIP' })
    if (ctx.depth === 0 && ctx.stepIndex > 0) events.push({ type: 'BACK' })
    if (ctx.depth > 0 && ctx.trail.length >= ctx.depth)
      events.push({
        type: 'POPSTATE',
        step: funnel.steps[ctx.trail[ctx.depth - 1]].name,
        depth: ctx.depth - 1,
      })
    return events
  }
}

export function serializeFor(funnel: ResolvedFunnel) {
  const fields = conditionFields(funnel)
  return (snapshot: FunnelSnapshot) => {
    const c = snapshot.context
    return JSON.stringify([
      snapshot.value,
      c.stepIndex,
      c.depth,
      c.trail,
      Object.keys(c.errors).filter((k) => c.errors[k as keyof typeof c.errors]).length > 0,
      fields.map((f) => c.values[f as keyof typeof c.values]),
      c.exit,
    ])
  }
}

/**
 * The machine the graph is explored on, its effects inert. `machine` (here and below) is the funnel
 * machine itself except in the mutant run (issue 38): a broken copy is tested from its own graph.
 */
export const graphMachine = (machine: FunnelMachine = funnelMachine) => funnelMachineWith(inertDeps, machine)

export function shortestPaths(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  input: FunnelInput,
  machine: FunnelMachine = funnelMachine,
) {
  return getShortestPaths(graphMachine(machine), {
    input: { ...input, funnel, page },
    events: graphEvents(funnel) as never,
    serializeState: serializeFor(funnel) as never,
  })
}

/** Simple paths to the end of the funnel, without history moves, so their number stays bounded. */
export function simplePathsToEnd(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  input: FunnelInput,
  machine: FunnelMachine = funnelMachine,
) {
  const all = graphEvents(funnel)
  return getSimplePaths(graphMachine(machine), {
    input: { ...input, funnel, page },
    events: ((s: FunnelSnapshot) =>
      all(s).filter((e) => e.type !== 'POPSTATE' && e.type !== 'BACK')) as never,
    serializeState: serializeFor(funnel) as never,
    toState: ((s: FunnelSnapshot) => s.status === 'done') as never,
  })
}

export type ScriptMove = 'submit' | 'skip' | 'popstate' | 'back'

/**
 * A path through the same graph chosen by moves instead of search: async completions are taken
 * automatically, and an in-form BACK with history behind it is followed by the POPSTATE the
 * browser answers with (the graph alone cannot see the browser). A move the funnel does not offer
 * where it is (it ended, or has no history to go back to) ends the path there; null when none was made.
 */
export function scriptedPath(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  input: FunnelInput,
  moves: ScriptMove[],
  funnelLogic: FunnelMachine = funnelMachine,
) {
  const machine = graphMachine(funnelLogic)
  const offer = graphEvents(funnel)
  let [snap] = initialTransition(machine, { ...input, funnel, page }) as unknown as [FunnelSnapshot]
  const steps: { state: FunnelSnapshot; event: GraphEvent | { type: string } }[] = [
    { state: snap, event: { type: 'xstate.init' } },
  ]
  const apply = (event: GraphEvent) => {
    ;[snap] = transition(machine, snap as never, event as never) as unknown as [FunnelSnapshot]
  }
  const settle = () => {
    for (let e = offer(snap)[0]; e?.type.startsWith('xstate.done.actor.'); e = offer(snap)[0]) {
      apply(e)
      steps.push({ state: snap, event: e })
    }
  }
  settle()
  for (const move of moves) {
    const ctx = snap.context
    let event: GraphEvent | undefined
    if (move === 'submit') event = offer(snap).find((e) => e.type === 'SUBMIT')
    else if (move === 'skip') event = offer(snap).find((e) => e.type === 'SKIP')
    else if (move === 'popstate') event = offer(snap).find((e) => e.type === 'POPSTATE')
    else if (ctx.depth === 0) event = offer(snap).find((e) => e.type === 'BACK')
    else {
      const pop = offer(snap).find((e) => e.type === 'POPSTATE')
      if (!pop) break
      apply({ type: 'BACK' })
      apply(pop)
      steps.push({ state: snap, event: { type: 'BACK' } })
      settle()
      continue
    }
    if (!event) break
    apply(event)
    steps.push({ state: snap, event })
    settle()
  }
  return steps.length > 1 ? { steps } : null
}
