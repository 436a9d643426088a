/**
 * Walks the funnel machine's graph the way a visitor moves forward (CONTROL-CENTER §7): from each
 * shown step, submit a valid answer (and a "no" for a yes-no step, each option of a choice a
 * condition looks at) or skip; the machine's async completions come from the pure action planner,
 * as in engine/funnel/funnel-graph.ts. Invalid answers and history moves are left out: they never
 * change where a funnel can end.
 *
 * Unlike `getSimplePaths`, the walk checks a time budget and a path cap as it goes, so a funnel with
 * many conditions fails closed with a clear message instead of hanging a publish.
 */
import { initialTransition, transition } from 'xstate'
import type { Field } from '../../../schemas/generated/field'
import type { FunnelPageInfo } from '../../funnel/funnel-deps'
import {
  conditionFields,
  type FunnelSnapshot,
  type GraphEvent,
  graphEvents,
  graphMachine,
} from '../../funnel/funnel-graph'
import type { FunnelInput } from '../../funnel/funnel-machine'
import { validStepValues } from '../../funnel/sample-values'
import type { ResolvedFunnel } from '../../snapshot/types'
import { GATE_MAX_PATHS } from './gate-constants'

/** How a path ended: at the page's destination, on another page, or refused by the machine. */
export type PathEnd = { kind: 'finished'; to: string } | { kind: 'left'; to: string } | { kind: 'refused' }

/** One visitor move: on step `step` (its index), the answer given. */
export interface Move {
  step: number
  /** `answer` (valid answers, yes), `no`, `skip`, or `field=value` for a choice a condition reads. */
  answer: string
  event: GraphEvent
}

/** What followed a move: the action that decided it and where the visitor stands next. */
export interface MoveResult {
  /** `next`, `stay`, `go-to-step`, `finish`, `go-to-page /x` (the step's on-submit outcome). */
  action: string
  next: FunnelSnapshot
  /** Every machine step on the way, the move's own first (done events included). */
  trace: { event: GraphEvent; state: FunnelSnapshot }[]
}

export interface ExploredPath {
  /** The machine steps before the first shown step (its on-enter actions). */
  opening: MoveResult['trace']
  moves: Move[]
  results: MoveResult[]
  end: PathEnd
  final: FunnelSnapshot
}

/** Thrown when exploring a funnel would exceed the time budget or the path cap. */
export class GateBudgetError extends Error {}

export interface Budget {
  deadline: number
  now: () => number
}

export const budgetOf = (ms: number, now: () => number = Date.now): Budget => ({
  deadline: now() + ms,
  now,
})

const START: Omit<FunnelInput, 'stepParam'> = { basePath: '/gate', search: '' }

export class FunnelExplorer {
  readonly #machine = graphMachine()
  readonly #offer: (s: FunnelSnapshot) => GraphEvent[]
  readonly #conditionFields: Set<string>

  constructor(
    readonly funnel: ResolvedFunnel,
    readonly page: FunnelPageInfo,
  ) {
    this.#offer = graphEvents(funnel)
    this.#conditionFields = new Set(conditionFields(funnel))
  }

  /** The first shown step (the machine settled after its on-enter actions), or an end. */
  start(): { state: FunnelSnapshot; trace: MoveResult['trace'] } {
    const [snap] = initialTransition(this.#machine, {
      ...START,
      stepParam: undefined,
      funnel: this.funnel,
      page: this.page,
    }) as unknown as [FunnelSnapshot]
    return this.#settle(snap)
  }

  #apply(snap: FunnelSnapshot, event: GraphEvent): FunnelSnapshot {
    return (transition(this.#machine, snap as never, event as never) as unknown as [FunnelSnapshot])[0]
  }

  #settle(from: FunnelSnapshot): { state: FunnelSnapshot; trace: MoveResult['trace'] } {
    const trace: MoveResult['trace'] = []
    let snap = from
    for (let e = this.#offer(snap)[0]; e?.type.startsWith('xstate.done.actor.'); e = this.#offer(snap)[0]) {
      snap = this.#apply(snap, e)
      trace.push({ event: e, state: snap })
    }
    return { state: snap, trace }
  }

  /** The moves a visitor can make on the shown step. */
  moves(snap: FunnelSnapshot): Move[] {
    if (snap.status !== 'active' || !snap.matches('showing')) return []
    const step = snap.context.stepIndex
    const fields = this.funnel.steps[step].fields
    const out: Move[] = []
    const offered = this.#offer(snap)
    for (const e of offered) {
      if (e.type === 'SKIP') out.push({ step, answer: 'skip', event: e })
      if (e.type !== 'SUBMIT' || e.note === 'invalid') continue
      out.push({ step, answer: e.note === 'no' ? 'no' : 'answer', event: e })
    }
    for (const f of fields)
      if (f.kind === 'choice' && this.#conditionFields.has(f.name)) out.push(...choices(step, fields, f))
    return out
  }

  /** Makes a move and follows the machine to the next shown step or an end. */
  play(snap: FunnelSnapshot, move: Move): MoveResult {
    const after = this.#apply(snap, move.event)
    const { state, trace } = this.#settle(after)
    const submit = trace.find((t) => t.event.type === 'xstate.done.actor.runSubmit')
    const outcome = (submit?.event as { output?: { outcome?: { kind: string; path?: string } } } | undefined)
      ?.output?.outcome
    const action =
      !outcome || outcome.kind === 'continue'
        ? 'next'
        : outcome.kind === 'go-to-page'
          ? `go-to-page ${outcome.path}`
          : outcome.kind
    return { action, next: state, trace: [{ event: move.event, state: after }, ...trace] }
  }

  /** A key for "the same situation": step, answers any condition reads, and the machine's state. */
  key(snap: FunnelSnapshot): string {
    const c = snap.context
    return JSON.stringify([
      snap.status,
      snap.value,
      c.stepIndex,
      [...this.#conditionFields].map((f) => c.values[f as keyof typeof c.values]),
      c.exit,
    ])
  }

  /**
   * Every simple path (no situation twice) from the first step to an end, in depth-first order.
   * Throws GateBudgetError past the budget or the path cap.
   */
  simplePaths(budget: Budget): ExploredPath[] {
    const out: ExploredPath[] = []
    const { state: first, trace: opening } = this.start()
    const onPath = new Set<string>()
    const moves: Move[] = []
    const results: MoveResult[] = []
    const visit = (snap: FunnelSnapshot) => {
      if (budget.now() >= budget.deadline) throw new GateBudgetError('time budget')
      const end = endOf(snap)
      if (end) {
        out.push({ opening, moves: [...moves], results: [...results], end, final: snap })
        if (out.length > GATE_MAX_PATHS) throw new GateBudgetError(`more than ${GATE_MAX_PATHS} paths`)
        return
      }
      const key = this.key(snap)
      if (onPath.has(key)) return
      onPath.add(key)
      for (const move of this.moves(snap)) {
        const r = this.play(snap, move)
        moves.push(move)
        results.push(r)
        visit(r.next)
        moves.pop()
        results.pop()
      }
      onPath.delete(key)
    }
    visit(first)
    return out
  }

  /**
   * Breadth-first over situations: each one once. Gives the transitions between steps (for the
   * graph) and the shortest path to each distinct end.
   */
  explore(budget: Budget): {
    transitions: { from: number; answer: string; action: string; to: number | PathEnd }[]
    shortest: ExploredPath[]
    /** Shown steps, by index. */
    reached: Set<number>
  } {
    const { state: first, trace: opening } = this.start()
    const seen = new Map<string, { moves: Move[]; results: MoveResult[] }>([
      [this.key(first), { moves: [], results: [] }],
    ])
    const queue: FunnelSnapshot[] = [first]
    const transitions: { from: number; answer: string; action: string; to: number | PathEnd }[] = []
    const shortest = new Map<string, ExploredPath>()
    const reached = new Set<number>()
    const seenEdge = new Set<string>()
    while (queue.length) {
      if (budget.now() >= budget.deadline) throw new GateBudgetError('time budget')
      const snap = queue.shift()!
      const here = seen.get(this.key(snap))!
      const end = endOf(snap)
      if (end) {
        const k = JSON.stringify(end)
        if (!shortest.has(k)) shortest.set(k, { opening, ...here, end, final: snap })
        continue
      }
      if (!snap.matches('showing')) continue
      const from = snap.context.stepIndex
      reached.add(from)
      for (const move of this.moves(snap)) {
        const r = this.play(snap, move)
        const nextEnd = endOf(r.next)
        const to: number | PathEnd = nextEnd ?? r.next.context.stepIndex
        const ek = JSON.stringify([from, move.answer, r.action, to])
        if (!seenEdge.has(ek)) {
          seenEdge.add(ek)
          transitions.push({ from, answer: move.answer, action: r.action, to })
        }
        const k = this.key(r.next)
        if (seen.has(k)) continue
        seen.set(k, { moves: [...here.moves, move], results: [...here.results, r] })
        queue.push(r.next)
      }
    }
    return { transitions, shortest: [...shortest.values()], reached }
  }
}

function choices(step: number, fields: readonly Field[], field: Field): Move[] {
  return (field.options ?? []).slice(1).map((o) => ({
    step,
    answer: `${field.name}=${o.value}`,
    event: { type: 'SUBMIT', values: { ...validStepValues(fields), [field.name]: o.value } } as GraphEvent,
  }))
}

export function endOf(snap: FunnelSnapshot): PathEnd | null {
  if (snap.status !== 'done') return null
  if (snap.value === 'finished') return { kind: 'finished', to: snap.context.exit ?? '' }
  if (snap.value === 'left') return { kind: 'left', to: snap.context.exit ?? '' }
  return { kind: 'refused' }
}

/** "zip→medicare(no)→contact(skipped)": the steps a path answered, with any answer but the default. */
export function describePath(funnel: ResolvedFunnel, moves: readonly Move[]): string {
  if (moves.length === 0) return '(start)'
  return moves
    .map((m) => {
      const name = funnel.steps[m.step].name
      if (m.answer === 'answer') return name
      return `${name}(${m.answer === 'skip' ? 'skipped' : m.answer})`
    })
    .join('→')
}

export function describeEnd(end: PathEnd): string {
  if (end.kind === 'refused') return 'a refused exit'
  return end.kind === 'finished' ? `the destination ${end.to}` : `the page ${end.to}`
}
