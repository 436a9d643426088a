/**
 * The paths the funnel model tests walk for one funnel, numbered, each as a line a person can read
 * (`zip(90210) → medicare(no) → contact → finished → /thank-you`) with the steps' URLs. The model
 * test (funnel.model.test.ts) and `npm run paths -- <funnel id>` both take their paths from here.
 */
import { getAdjacencyMap } from 'xstate/graph'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import {
  type FunnelSnapshot,
  type GraphEvent,
  graphEvents,
  graphMachine,
  type ScriptMove,
  scriptedPath,
  serializeFor,
  shortestPaths,
  simplePathsToEnd,
} from '../../engine/funnel/funnel-graph'
import { stepUrl } from '../../engine/funnel/funnel-location'
import { type FunnelInput, type FunnelMachine, funnelMachine } from '../../engine/funnel/funnel-machine'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import type { GraphPath } from './replay-path'

/** The base path and query the model runs the funnel under (any base works: only step names matter). */
export const MODEL_BASE = '/funnel-under-test'
export const MODEL_QUERY = '?utm_source=x'
const SIMPLE_PATH_SAMPLE = 24

export type FunnelPathKind = 'complete' | 'shortest' | 'history'

export interface FunnelModelPath {
  /** 1-based, as `npm run paths -- <funnel> --replay N` takes it. */
  n: number
  kind: FunnelPathKind
  title: string
  input: FunnelInput
  path: GraphPath
  line: string
}

export const KIND_TITLES: Record<FunnelPathKind, string> = {
  complete: 'simple paths to the destination, starting from a missing step',
  shortest: 'shortest paths, starting from an unknown step with a query string; then any move no path walks',
  history: 'history: the browser back button and the form back button (on every step it leads back from)',
}

const snapOf = (s: GraphPath['steps'][number]) => s.state as unknown as FunnelSnapshot

/** `zip(90210) → medicare(no) → contact → finished → /thank-you`: each move named by the step it answers. */
export function describeFunnelPath(funnel: ResolvedFunnel, path: GraphPath): string {
  const moves: string[] = []
  path.steps.forEach((s, i) => {
    if (i === 0) return
    const e = s.event as GraphEvent
    const step = funnel.steps[snapOf(path.steps[i - 1]).context.stepIndex]
    if (e.type === 'SUBMIT') {
      const only = step.fields.length === 1 ? e.values?.[step.fields[0].name] : undefined
      const note = e.note ?? (only === true ? 'yes' : only === false ? 'no' : only)
      moves.push(`${step.name}${note !== undefined && note !== '' ? `(${note})` : ''}`)
    } else if (e.type === 'SKIP') moves.push(`${step.name}(skip)`)
    else if (e.type === 'BACK') moves.push('back')
    else if (e.type === 'POPSTATE') moves.push('browser back')
  })
  const end = snapOf(path.steps.at(-1)!)
  if (end.status === 'done') moves.push(String(end.value), end.context.exit ?? '?')
  else moves.push(`(on ${funnel.steps[end.context.stepIndex].name})`)
  return moves.join(' → ')
}

/** The URLs a person visits along the path, under `base` (the page's path without its step). */
export function funnelPathUrls(funnel: ResolvedFunnel, fp: FunnelModelPath, base: string): string[] {
  const { input } = fp
  const urls = [`${input.stepParam === undefined ? base : stepUrl(base, input.stepParam)}${input.search}`]
  let shown = -1
  for (const s of fp.path.steps) {
    const snap = snapOf(s)
    let url: string | null = null
    if (snap.status === 'done') url = snap.context.exit
    else if (snap.value === 'showing' && snap.context.stepIndex !== shown) {
      // The first step shown keeps the query string; moving on drops it.
      url = stepUrl(base, funnel.steps[snap.context.stepIndex].name, shown === -1 ? input.search : '')
      shown = snap.context.stepIndex
    }
    if (url && url !== urls.at(-1)) urls.push(url)
  }
  return urls
}

/** A bounded, deterministic set of simple paths that still covers skip, invalid submit and "no" answers. */
function sampleSimplePaths(funnel: ResolvedFunnel, paths: GraphPath[]): GraphPath[] {
  const picked = new Set<GraphPath>()
  const line = (p: GraphPath) => describeFunnelPath(funnel, p)
  for (const want of [
    (d: string) => !d.includes('(skip)') && !d.includes('(no)') && !d.includes('(invalid)'),
    (d: string) => d.includes('(skip)'),
    (d: string) => d.includes('(no)'),
  ]) {
    const p = paths.find((x) => want(line(x)))
    if (p) picked.add(p)
  }
  const stride = Math.max(1, Math.floor(paths.length / SIMPLE_PATH_SAMPLE))
  for (let i = 0; i < paths.length && picked.size < SIMPLE_PATH_SAMPLE; i += stride) picked.add(paths[i])
  return [...picked]
}

/** Every path the model walks for this funnel on this page: complete ones first, so #1 ends at the destination. */
export function funnelModelPaths(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  {
    /** Off only to show what the coverage check says without the paths it asks for. */
    coverEveryMove = true,
    /** The funnel machine, or a broken copy of it (`npm run mutants`): paths from its own graph. */
    machine = funnelMachine as FunnelMachine,
  } = {},
): FunnelModelPath[] {
  const out: Omit<FunnelModelPath, 'n'>[] = []
  const add = (kind: FunnelPathKind, input: FunnelInput, path: GraphPath) =>
    out.push({ kind, title: KIND_TITLES[kind], input, path, line: describeFunnelPath(funnel, path) })

  const fromMissing = { stepParam: undefined, basePath: MODEL_BASE, search: MODEL_QUERY }
  for (const p of sampleSimplePaths(
    funnel,
    simplePathsToEnd(funnel, page, fromMissing, machine) as unknown as GraphPath[],
  ))
    add('complete', fromMissing, p)
  const fromUnknown = { stepParam: 'nonsense', basePath: MODEL_BASE, search: MODEL_QUERY }
  for (const p of shortestPaths(funnel, page, fromUnknown, machine) as unknown as GraphPath[])
    add('shortest', fromUnknown, p)
  const first = funnel.steps[0].name
  // The step the page opens at: undefined for none (redirected to the first), null for a step the funnel lacks.
  const scripts: { stepParam: string | undefined | null; moves: ScriptMove[] }[] = [
    { stepParam: first, moves: ['submit', 'submit', 'popstate', 'popstate'] },
    { stepParam: first, moves: ['submit', 'submit', 'back', 'submit'] },
    { stepParam: funnel.steps[2]?.name ?? null, moves: ['back', 'submit'] },
    // From a page opened at no step (redirected to the first): the browser's back stays on the steps.
    { stepParam: undefined, moves: ['submit', 'submit', 'popstate'] },
  ]
  for (const s of scripts) {
    if (s.stepParam === null) continue
    const input = { stepParam: s.stepParam, basePath: MODEL_BASE, search: MODEL_QUERY }
    const path = scriptedPath(funnel, page, input, s.moves, machine)
    if (path) add('history', input, path as unknown as GraphPath)
  }
  // The moves no path above walks (the form's Back on later steps), each by its shortest way.
  for (const p of coverEveryMove ? coveringPaths(funnel, page, out, machine) : [])
    add(p.path.steps.some((s) => s.event.type === 'BACK') ? 'history' : 'shortest', p.input, p.path)
  return out.map((p, i) => ({ n: i + 1, ...p }))
}

export interface FunnelCoverage {
  /** The funnel's steps and exits a visitor can reach, and those the paths show. */
  states: { id: string; covered: boolean }[]
  /** Moves from a step to the next step or exit (the graph's edges), and those the paths take. */
  transitions: { label: string; covered: boolean }[]
}

type Adjacency = Record<
  string,
  {
    state: FunnelSnapshot
    transitions: Record<string, { state: FunnelSnapshot; event: GraphEvent }>
  }
>

/** One move of the graph and where it was found: the state it leaves, the event, and the steps to the next stable state. */
interface FunnelMove {
  label: string
  input: FunnelInput
  fromKey: string
  /** The event, then the machine's own completions up to the next stable state. */
  steps: GraphPath['steps']
}

const stable = (s: FunnelSnapshot) => s.status === 'done' || s.value === 'showing'
const whereIn = (funnel: ResolvedFunnel) => (s: FunnelSnapshot) =>
  s.status === 'done' ? `${String(s.value)} ${s.context.exit}` : funnel.steps[s.context.stepIndex].name

/** Every move between steps and exits of the funnel's graph, explored from each of `inputs`. */
function funnelMoves(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  inputs: Iterable<FunnelInput>,
  machine: FunnelMachine,
): { states: Set<string>; moves: Map<string, FunnelMove> } {
  const where = whereIn(funnel)
  const serialize = serializeFor(funnel)
  const moves = new Map<string, FunnelMove>()
  const states = new Set<string>(funnel.steps.map((s) => s.name))
  for (const input of inputs) {
    const adjacency = getAdjacencyMap(graphMachine(machine), {
      input: { ...input, funnel, page },
      events: graphEvents(funnel) as never,
      serializeState: serialize as never,
    }) as unknown as Adjacency
    for (const [fromKey, { state, transitions }] of Object.entries(adjacency)) {
      if (!stable(state)) continue
      for (const t of Object.values(transitions)) {
        states.add(where(t.state))
        // Follow the machine's own completions to the next stable state.
        const steps: GraphPath['steps'] = [{ state: t.state, event: t.event }]
        let next = t.state
        for (let i = 0; !stable(next) && i < 10; i++) {
          const onward = Object.values(adjacency[serialize(next)]?.transitions ?? {})[0]
          if (!onward) break
          next = onward.state
          steps.push({ state: next, event: onward.event })
        }
        if (!stable(next)) continue
        states.add(where(next))
        const label = `${where(state)} → ${where(next)}`
        if (!moves.has(label)) moves.set(label, { label, input, fromKey, steps })
      }
    }
  }
  return { states, moves }
}

/** The moves (and steps and exits) the paths walk. */
function walked(funnel: ResolvedFunnel, paths: { path: GraphPath }[]) {
  const where = whereIn(funnel)
  const states = new Set<string>()
  const edges = new Set<string>()
  for (const p of paths) {
    const shown = p.path.steps.map(snapOf).filter(stable)
    shown.forEach((s, i) => {
      states.add(where(s))
      if (i > 0) edges.add(`${where(shown[i - 1])} → ${where(s)}`)
    })
  }
  return { states, edges }
}

/**
 * Paths for the moves no other path takes (the form's Back on a later step): the shortest way to the
 * move's step, then the move.
 */
function coveringPaths(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  paths: { input: FunnelInput; path: GraphPath }[],
  machine: FunnelMachine,
): { input: FunnelInput; path: GraphPath }[] {
  const { moves } = funnelMoves(funnel, page, new Set(paths.map((p) => p.input)), machine)
  const seen = walked(funnel, paths).edges
  const serialize = serializeFor(funnel)
  const shortest = new Map<FunnelInput, Map<string, GraphPath>>()
  const out: { input: FunnelInput; path: GraphPath }[] = []
  for (const move of moves.values()) {
    if (seen.has(move.label)) continue
    let to = shortest.get(move.input)
    if (!to) {
      to = new Map()
      for (const sp of shortestPaths(funnel, page, move.input, machine) as unknown as (GraphPath & {
        state: FunnelSnapshot
      })[])
        to.set(serialize(sp.state), sp)
      shortest.set(move.input, to)
    }
    const prefix = to.get(move.fromKey)
    if (!prefix) continue
    // A browser back with history behind it is walked as the form's Back, which the browser answers
    // with the same back (the replay sends BACK; the page's history pops).
    const [first, ...rest] = move.steps
    const via =
      first.event.type === 'POPSTATE'
        ? [{ state: first.state, event: { type: 'BACK' } }, ...rest]
        : move.steps
    const path = { steps: [...prefix.steps, ...via] }
    out.push({ input: move.input, path })
    for (const e of walked(funnel, [{ path }]).edges) seen.add(e)
  }
  return out
}

/** Which steps and step-to-step moves of the funnel's graph the paths walk. */
export function funnelCoverage(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  paths: FunnelModelPath[],
  /** The machine the paths were generated from (a broken copy in `npm run mutants`). */
  machine: FunnelMachine = funnelMachine,
): FunnelCoverage {
  const { states, moves } = funnelMoves(funnel, page, new Set(paths.map((p) => p.input)), machine)
  const seen = walked(funnel, paths)
  return {
    states: [...states].map((id) => ({ id, covered: seen.states.has(id) })),
    transitions: [...moves.keys()].map((label) => ({ label, covered: seen.edges.has(label) })),
  }
}

/**
 * Fails, naming each move, when the paths miss a move of the funnel's graph (as a machine whose
 * generated paths miss a transition fails).
 */
export function assertFunnelCoverage(funnel: ResolvedFunnel, coverage: FunnelCoverage): void {
  const missed = [
    ...coverage.states.filter((s) => !s.covered).map((s) => `step or exit ${s.id}`),
    ...coverage.transitions.filter((t) => !t.covered).map((t) => `move ${t.label}`),
  ]
  if (missed.length)
    throw new Error(
      `funnel ${funnel.id}: its model paths miss ${missed.length} of ${coverage.states.length + coverage.transitions.length} steps, exits and moves of its graph:\n  ${missed.join('\n  ')}\n(npm run paths -- ${funnel.id} lists them)`,
    )
}
