/**
 * Model-based testing of any XState machine from its own graph (issue 31). A `MachineModel` names
 * only what the machine cannot say itself: payloads for events that carry data, what each invoked
 * actor may answer, the part of the context that matters (so the graph stays finite) and what every
 * state promises. Everything else comes from the machine: the events each state listens to, its
 * delays (taken on a simulated clock), its invoked actors' done and error events, its states and
 * transitions. A state or transition added to a machine is explored, walked and counted with no test
 * code written.
 *
 * The same paths feed the model tests (tests/model/machines.model.test.ts) and `npm run paths`.
 */
import assert from 'node:assert/strict'
import {
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createActor,
  createEmptyActor,
  type EventObject,
  fromPromise,
  SimulatedClock,
} from 'xstate'
import { getAdjacencyMap } from 'xstate/graph'

/** The model's clock starts here (a fixed instant, so paths and their outputs are the same every run). */
export const MODEL_T0 = Date.parse('2026-11-24T18:00:00Z')

/** What an invoked actor may answer: an output computed when it answers, or an error. */
export type ActorOutcome =
  | { name: string; output: (context: unknown, now: number) => unknown }
  | { name: string; error: string }

/** One fact a state promises, checked after every step of every path. */
export interface StatePromise {
  says: string
  holds: (facts: StepFacts) => boolean
}

export interface StepFacts {
  before: AnyMachineSnapshot | null
  after: AnyMachineSnapshot
  step: ModelStep | null
  now: number
  /** Effects (actor starts, provided actions) seen during this step, and since the start. */
  effects: Effect[]
  allEffects: Effect[]
}

export interface Effect {
  at: number
  /** An actor's src or an action's name. */
  name: string
  detail: unknown
}

export interface MachineModel {
  /** The name `npm run paths -- <name>` takes. */
  name: string
  title: string
  machine: AnyStateMachine
  /** Where a path may start; more than one when an input changes what is reachable. */
  starts: { name: string; input: (now: () => number) => unknown }[]
  /** Payloads for events that carry data, as a function of the snapshot (STACK pitfall 9). */
  payloads?: Record<string, (snapshot: AnyMachineSnapshot, now: number) => EventObject[]>
  /** What each invoked actor (by src) may answer. */
  outcomes: Record<string, ActorOutcome[]>
  /** Provided actions whose calls are effects to record (their params become the detail). */
  effects?: string[]
  /** The part of a snapshot that matters; snapshots with the same key are one vertex of the graph. */
  key: (snapshot: AnyMachineSnapshot, now: number) => unknown
  promises: StatePromise[]
  /** How an event with a payload reads in a path line (default: its type and payload). */
  describe?: (event: EventObject) => string | undefined
  /**
   * Single-fault copies of the machine (`npm run mutants`) that no test can tell from it, by label,
   * each with the reason.
   */
  equivalentMutants?: Record<string, string>
}

type Kind = 'event' | 'delay' | 'done' | 'error'

export interface ModelStep {
  kind: Kind
  event: EventObject
  label: string
  /** For a delay: the milliseconds that pass; for done/error: the actor's src. */
  delay?: number
  src?: string
  /** The snapshot the graph says the machine is in after this step, and the model time then. */
  state: AnyMachineSnapshot
  at: number
}

export interface ModelPath {
  /** 1-based, as `npm run paths -- <name> --replay N` takes it. */
  n: number
  start: string
  steps: ModelStep[]
  line: string
}

interface AnyTransition {
  source: AnyStateNode
  target?: readonly AnyStateNode[] | undefined
  eventType: string
  guard?: unknown
}

export interface Coverage {
  states: { id: string; covered: boolean }[]
  transitions: { label: string; covered: boolean }[]
}

export interface ModelPaths {
  model: MachineModel
  paths: ModelPath[]
  coverage: Coverage
  /** Transitions computed to explore the graphs. */
  explored: number
}

// ---------------------------------------------------------------------------------------------
// The machine's own structure

function allNodes(machine: AnyStateMachine): AnyStateNode[] {
  const out: AnyStateNode[] = []
  const walk = (n: AnyStateNode) => {
    out.push(n)
    for (const c of Object.values(n.states ?? {})) walk(c as AnyStateNode)
  }
  walk(machine.root)
  return out
}

function allTransitions(machine: AnyStateMachine): AnyTransition[] {
  return allNodes(machine).flatMap((n) => [
    ...[...n.transitions.values()].flat(),
    ...(n.always ?? []),
  ]) as unknown as AnyTransition[]
}

const nodeName = (n: AnyStateNode) => (n.path.length === 0 ? '(any state)' : n.path.join('.'))

/** A delay in milliseconds: a number, or a named delay that is a number or computed from the context (a backoff). */
function delayOf(
  machine: AnyStateMachine,
  node: AnyStateNode,
  type: string,
  snap: AnyMachineSnapshot,
): number {
  const t = node.after.find((a) => a.eventType === type)
  assert.ok(t, `no delayed transition ${type} in ${node.id}`)
  const d = t.delay
  if (typeof d === 'number') return d
  assert.equal(typeof d, 'string', `delay of ${node.id} must be a number or a named delay`)
  const named = (machine.implementations.delays as Record<string, unknown>)[d as string]
  const impl =
    typeof named === 'function'
      ? (named as (a: { context: unknown }) => unknown)({ context: snap.context })
      : named
  assert.equal(typeof impl, 'number', `delay ${d} of ${node.id} must be a number of milliseconds`)
  return impl as number
}

function srcOf(node: AnyStateNode, id: string): string {
  const inv = node.invoke.find((i) => i.id === id)
  assert.ok(inv && typeof inv.src === 'string', `invoke ${id} of ${node.id} must name its src`)
  return inv.src as string
}

function transitionLabel(t: AnyTransition, all: AnyTransition[]): string {
  const ev = t.eventType
  const event = !ev
    ? 'always'
    : ev.startsWith('xstate.after.')
      ? `after ${ev.split('.')[2]}`
      : ev.startsWith('xstate.done.actor.')
        ? `done(${srcOf(t.source, ev.slice('xstate.done.actor.'.length))})`
        : ev.startsWith('xstate.error.actor.')
          ? `error(${srcOf(t.source, ev.slice('xstate.error.actor.'.length))})`
          : ev
  const siblings = all.filter((x) => x.source === t.source && x.eventType === t.eventType)
  const guard =
    siblings.length > 1
      ? typeof (t.guard as { type?: unknown })?.type === 'string'
        ? ` [${(t.guard as { type: string }).type}]`
        : ` #${siblings.indexOf(t) + 1}`
      : t.guard && typeof (t.guard as { type?: unknown }).type === 'string'
        ? ` [${(t.guard as { type: string }).type}]`
        : ''
  const to = t.target?.length ? t.target.map(nodeName).join(', ') : '(stays)'
  return `${nodeName(t.source)} —${event}${guard}→ ${to}`
}

// ---------------------------------------------------------------------------------------------
// The graph, with a model clock that advances when a delay is taken

/**
 * A graph larger than this is a model whose key does not bound the context (or a broken copy of a
 * machine that counts without end): exploring stops with an error instead of running forever.
 */
const MAX_GRAPH_TRANSITIONS = 50_000

const words = (type: string) => type.toLowerCase().replace(/_/g, ' ')

function payloadLabel(e: EventObject): string {
  const rest = Object.entries(e).filter(([k]) => k !== 'type')
  if (rest.length === 0) return ''
  const shown = rest.map(([, v]) =>
    typeof v === 'object' && v !== null ? ((v as { label?: string }).label ?? '…') : String(v),
  )
  return `(${shown.join(', ')})`
}

type StepMeta = Omit<ModelStep, 'state' | 'at' | 'event'>

interface Explored {
  paths: Omit<ModelPath, 'n'>[]
  fired: Set<AnyTransition>
  /** Transitions computed to explore the graph. */
  explored: number
}

/** An actor scope for calling the machine's transition function directly, reporting each microstep's transitions. */
function modelScope(onMicrostep: (transitions: AnyTransition[]) => void) {
  const self = createEmptyActor()
  const system = Object.create(self.system, {
    _sendInspectionEvent: {
      value: (e: { type: string; _transitions?: AnyTransition[] }) => {
        if (e.type === '@xstate.microstep') onMicrostep(e._transitions ?? [])
      },
    },
  })
  return {
    self,
    logger: () => {},
    id: '',
    sessionId: 'model',
    defer: () => {},
    system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  }
}

type Adjacency = Record<
  string,
  {
    state: AnyMachineSnapshot
    transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }>
  }
>

/**
 * The paths to walk, as moves: a shortest path to every vertex (breadth first over the graph xstate
 * found), and every edge (the shortest path to its source, then that edge). A path that is the start
 * of another is dropped.
 */
function pathMoves(adjacency: Adjacency, serializeState: (s: AnyMachineSnapshot) => string): string[][] {
  const initialKey = Object.keys(adjacency)[0]
  const movesTo = new Map<string, string[]>([[initialKey, []]])
  for (const key of movesTo.keys())
    for (const [move, { state }] of Object.entries(adjacency[key].transitions)) {
      const next = serializeState(state)
      if (!movesTo.has(next)) movesTo.set(next, [...movesTo.get(key)!, move])
    }
  const candidates: string[][] = []
  for (const [key, moves] of movesTo) {
    candidates.push(moves)
    for (const move of Object.keys(adjacency[key].transitions)) candidates.push([...moves, move])
  }
  const sig = (moves: string[]) => moves.map((m) => `${m}\n`).join('')
  const kept: string[][] = []
  for (const c of [...candidates].sort((x, y) => y.length - x.length)) {
    if (kept.some((k) => sig(k).startsWith(sig(c)))) continue
    kept.push(c)
  }
  kept.sort((x, y) => x.length - y.length || sig(x).localeCompare(sig(y)))
  return kept
}

function explore(
  model: MachineModel,
  start: MachineModel['starts'][number],
  maxTransitions: number,
): Explored {
  const { machine } = model
  const times = new WeakMap<object, number>()
  const firedBy = new WeakMap<object, AnyTransition[]>()
  const meta = new WeakMap<EventObject, StepMeta>()
  let now = MODEL_T0
  let explored = 0
  let recording: AnyTransition[] = []
  const scope = modelScope((transitions) => recording.push(...transitions))
  const input = start.input(() => now)
  const remember = (snap: AnyMachineSnapshot) => {
    times.set(snap, now)
    firedBy.set(snap, recording)
    recording = []
    return snap
  }
  const logic = {
    ...machine,
    getInitialSnapshot: () => {
      now = MODEL_T0
      recording = []
      return remember(machine.getInitialSnapshot(scope as never, input) as AnyMachineSnapshot)
    },
    transition: (snap: AnyMachineSnapshot, event: EventObject) => {
      if (++explored > maxTransitions)
        throw new Error(
          `${model.name}: the graph grows past ${maxTransitions} transitions (does its key bound the context?)`,
        )
      now = (times.get(snap) ?? MODEL_T0) + (meta.get(event)?.delay ?? 0)
      recording = []
      return remember(machine.transition(snap as never, event as never, scope as never) as AnyMachineSnapshot)
    },
  }
  const events = (snap: AnyMachineSnapshot): EventObject[] => {
    if (snap.status !== 'active') return []
    const at = times.get(snap) ?? MODEL_T0
    const out: EventObject[] = []
    const add = (e: EventObject, m: StepMeta) => {
      meta.set(e, m)
      out.push(e)
    }
    for (const node of snap._nodes as AnyStateNode[])
      for (const type of node.ownEvents as string[]) {
        if (type.startsWith('xstate.after.')) {
          const delay = delayOf(machine, node, type, snap)
          add({ type }, { kind: 'delay', delay, label: `${delay / 1000} s pass` })
        } else if (type.startsWith('xstate.done.actor.') || type.startsWith('xstate.error.actor.')) {
          const done = type.startsWith('xstate.done.actor.')
          const src = srcOf(node, type.split('.').slice(3).join('.'))
          for (const o of model.outcomes[src] ?? []) {
            if ('error' in o && !done)
              add({ type, error: new Error(o.error) } as EventObject, {
                kind: 'error',
                src,
                label: `${src} fails (${o.name})`,
              })
            if ('output' in o && done)
              add({ type, output: o.output(snap.context, at) } as EventObject, {
                kind: 'done',
                src,
                label: `${src}: ${o.name}`,
              })
          }
        } else
          for (const e of model.payloads?.[type]?.(snap, at) ?? [{ type }])
            add(e, { kind: 'event', label: model.describe?.(e) ?? `${words(type)}${payloadLabel(e)}` })
      }
    return out
  }
  const options = {
    input,
    events,
    serializeState: (s: AnyMachineSnapshot) =>
      JSON.stringify([s.status, s.value, model.key(s, times.get(s) ?? MODEL_T0)]),
    serializeEvent: (e: EventObject) => `${e.type} ${meta.get(e)?.label}`,
  }
  const adjacency = getAdjacencyMap(logic as never, options as never) as Record<
    string,
    {
      state: AnyMachineSnapshot
      transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }>
    }
  >
  const kept = pathMoves(adjacency, options.serializeState)
  // Each path is then walked again from the start, so its states and times are one run's.
  const fired = new Set<AnyTransition>()
  const walk = (moves: string[]): { initial: AnyMachineSnapshot; steps: ModelStep[] } | null => {
    const initial = logic.getInitialSnapshot()
    for (const t of firedBy.get(initial) ?? []) fired.add(t)
    let snap = initial
    const steps: ModelStep[] = []
    for (const move of moves) {
      const event = events(snap).find((e) => options.serializeEvent(e) === move)
      if (!event) return null
      snap = logic.transition(snap, event)
      for (const t of firedBy.get(snap) ?? []) fired.add(t)
      steps.push({ ...(meta.get(event) as StepMeta), event, state: snap, at: times.get(snap)! })
    }
    return { initial, steps }
  }
  const walked = kept.flatMap((moves) => {
    const w = walk(moves)
    return w ? [w] : []
  })
  const prefix = model.starts.length > 1 ? `[${start.name}] ` : ''
  return {
    fired,
    explored,
    paths: walked.map(({ initial, steps }) => ({
      start: start.name,
      steps,
      line: prefix + lineOf(steps, initial),
    })),
  }
}

function lineOf(steps: ModelStep[], initial: AnyMachineSnapshot): string {
  const end = steps.at(-1)?.state ?? initial
  const moves = steps.map((s) => s.label)
  return [...(moves.length ? moves : ['(start)']), `${stateName(end)}`].join(' → ')
}

const stateName = (s: AnyMachineSnapshot) => (typeof s.value === 'string' ? s.value : JSON.stringify(s.value))

/** The model's paths, numbered, with the machine's state and transition coverage. */
export function modelPaths(model: MachineModel, { maxTransitions = MAX_GRAPH_TRANSITIONS } = {}): ModelPaths {
  const explored = model.starts.map((s) => explore(model, s, maxTransitions))
  const paths = explored.flatMap((e) => e.paths).map((p, i) => ({ n: i + 1, ...p }))
  const fired = new Set(explored.flatMap((e) => [...e.fired]))
  const all = allTransitions(model.machine)
  const reached = new Set<AnyStateNode>([model.machine.root])
  for (const node of model.machine.root.initial.target) reached.add(node)
  // A state entered enters its ancestors too (a transition may target a child of a compound state).
  for (const t of fired)
    for (const target of t.target ?? [])
      for (let n: AnyStateNode | undefined = target; n; n = n.parent) reached.add(n)
  const states = allNodes(model.machine)
    .filter((n) => n.path.length > 0)
    .map((n) => ({ id: nodeName(n), covered: reached.has(n) }))
  const transitions = all.map((t) => ({ label: transitionLabel(t, all), covered: fired.has(t) }))
  return {
    model,
    paths,
    coverage: { states, transitions },
    explored: explored.reduce((n, e) => n + e.explored, 0),
  }
}

export function coverageLine({ states, transitions }: Coverage): string {
  const n = (xs: { covered: boolean }[]) => `${xs.filter((x) => x.covered).length}/${xs.length}`
  return `states ${n(states)}, transitions ${n(transitions)}`
}

// ---------------------------------------------------------------------------------------------
// Replaying a path against the real machine, on a simulated clock

export class PathFailure extends Error {}

const SETTLE_TICKS = 20

/** Runs the real machine along `path`, checking the graph's state and every promise after each step. */
export async function replayModelPath(
  model: MachineModel,
  path: ModelPath,
  opts: { onStep?: (text: string) => void; replayCommand?: string } = {},
): Promise<void> {
  const clock = new SimulatedClock()
  clock.set(MODEL_T0)
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }[]>()
  const effects: Effect[] = []
  const actors = Object.fromEntries(
    Object.keys(model.outcomes).map((src) => [
      src,
      fromPromise(({ input }) => {
        effects.push({ at: clock.now(), name: src, detail: input })
        return new Promise((resolve, reject) => {
          pending.set(src, [...(pending.get(src) ?? []), { resolve, reject }])
        })
      }),
    ]),
  )
  const actions = Object.fromEntries(
    (model.effects ?? []).map((name) => [
      name,
      (_: unknown, params: unknown) => void effects.push({ at: clock.now(), name, detail: params }),
    ]),
  )
  const start = model.starts.find((s) => s.name === path.start)!
  const machine = model.machine.provide({ actors, actions } as never)
  const actor = createActor(machine, { input: start.input(() => clock.now()), clock })
  const fail = (at: number, message: string): never => {
    throw new PathFailure(
      `${model.name} path ${path.n}, step ${at}: ${message}\n  path: ${path.line}\n  replay: ${
        opts.replayCommand ?? `npm run paths -- ${model.name} --replay ${path.n}`
      }`,
    )
  }
  // A promise actor's answer reaches the machine a few microtasks later; no timer, no real waiting.
  const settle = async () => {
    for (let i = 0; i < SETTLE_TICKS; i++) await Promise.resolve()
  }
  const key = (s: AnyMachineSnapshot) => JSON.stringify([s.status, s.value, model.key(s, clock.now())])
  const check = (i: number, before: AnyMachineSnapshot | null, step: ModelStep | null, seen: number) => {
    const after = actor.getSnapshot() as AnyMachineSnapshot
    const facts: StepFacts = {
      before,
      after,
      step,
      now: clock.now(),
      effects: effects.slice(seen),
      allEffects: [...effects],
    }
    for (const p of model.promises)
      if (!p.holds(facts)) fail(i, `broke the promise "${p.says}" in ${stateName(after)}`)
    // Every state promises what it invokes: each of its actors is running while the machine is there.
    for (const node of after.status === 'active' ? (after._nodes as AnyStateNode[]) : [])
      for (const inv of node.invoke)
        if (
          (after.children[inv.id] as { getSnapshot(): { status: string } } | undefined)?.getSnapshot()
            .status !== 'active'
        )
          fail(i, `${stateName(after)} should be running ${String(inv.src)}, and is not`)
    return after
  }
  actor.start()
  await settle()
  let before = check(0, null, null, 0)
  opts.onStep?.(`  0. start (${path.start}) → ${stateName(before)}`)
  for (const [index, step] of path.steps.entries()) {
    const i = index + 1
    const seen = effects.length
    if (step.kind === 'delay') {
      clock.set(clock.now() + step.delay! - 1)
      await settle()
      if (key(actor.getSnapshot() as AnyMachineSnapshot) !== key(before))
        fail(i, `changed before its ${step.delay} ms had passed`)
      clock.set(clock.now() + 1)
    } else if (step.kind === 'done' || step.kind === 'error') {
      const waiting = pending.get(step.src!)?.pop()
      if (!waiting) fail(i, `${step.src} was not running`)
      pending.set(step.src!, [])
      if (step.kind === 'done') waiting!.resolve((step.event as { output?: unknown }).output)
      else waiting!.reject((step.event as { error?: unknown }).error)
    } else actor.send(step.event)
    await settle()
    const now = actor.getSnapshot() as AnyMachineSnapshot
    if (clock.now() !== step.at)
      fail(i, `the clock is at ${clock.now() - MODEL_T0} ms, the model at ${step.at - MODEL_T0}`)
    if (key(now) !== key(step.state))
      fail(i, `after "${step.label}" the machine is in ${key(now)}, the graph says ${key(step.state)}`)
    before = check(i, before, step, seen)
    opts.onStep?.(
      `  ${i}. +${(clock.now() - MODEL_T0) / 1000} s  ${step.label} → ${stateName(before)}${
        effects.length > seen
          ? `  (${effects
              .slice(seen)
              .map((e) => e.name)
              .join(', ')})`
          : ''
      }`,
    )
  }
  actor.stop()
}
