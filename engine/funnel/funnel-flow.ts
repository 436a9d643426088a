import type { Action, SingleAction } from '../../schemas/generated/action'
import type { Condition } from '../../schemas/generated/condition'
import type { Funnel } from '../../schemas/generated/funnel'
import type { Step } from '../../schemas/generated/step'

/**
 * The funnel editor's reading of a funnel: actions and conditions in sentence form ("If haveMedicaid
 * is no, go to step contact") and the flow between steps, drawn as a graph. Pure: the control center
 * runs it in the browser on unsaved text, so it reads the definitions, not the machine (the publish
 * gates prove paths on the machine itself).
 */

/** A value as a visitor would read it: yes/no for booleans, quotes around text. */
export function valueWords(v: unknown): string {
  if (v === true) return 'yes'
  if (v === false) return 'no'
  if (typeof v === 'number') return String(v)
  return `“${String(v)}”`
}

const TERMS: Record<string, string> = { all: ' and ', any: ' or ' }

/** A condition in words: `haveMedicaid is no`, `state is one of “CA”, “TX”`, `the bid is low`. */
export function conditionWords(c: Condition): string {
  switch (c.type) {
    case 'answer-equals':
      return `${c.field} is ${valueWords(c.value)}`
    case 'answer-in':
      return `${c.field} is one of ${c.values.map(valueWords).join(', ')}`
    case 'low-bid':
      return 'the bid is low'
    case 'not-low-bid':
      return 'the bid is not low'
    case 'not':
      return `not (${conditionWords(c.condition)})`
    case 'all':
    case 'any': {
      const parts = c.conditions.map((x) =>
        x.type === 'all' || x.type === 'any' ? `(${conditionWords(x)})` : conditionWords(x),
      )
      return parts.join(TERMS[c.type])
    }
  }
}

/** What an action does, in words, without its condition: `go to step contact`. */
export function actionVerb(a: SingleAction): string {
  switch (a.type) {
    case 'go-to-step':
      return `go to step ${a.step}`
    case 'go-to-page':
      return `go to page ${a.path}`
    case 'finish':
      return "finish (go to the page's destination)"
    case 'stay':
      return 'stay on this step'
    case 'set-field':
      return `set ${a.field} to ${valueWords(a.value)}`
    case 'track':
      return `track the event ${a.event}`
    case 'demand-check':
      return 'ask the ad marketplace for demand'
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** The whole sentence: `If haveMedicaid is no, go to step contact.` or `Go to step contact.` */
export function actionSentence(a: SingleAction): string {
  const when = 'when' in a && a.when ? a.when : undefined
  return when ? `If ${conditionWords(when)}, ${actionVerb(a)}.` : `${capital(actionVerb(a))}.`
}

/** An action field (one action, a list, or none) as a list. */
export const actionList = (a: Action | undefined): SingleAction[] =>
  a === undefined ? [] : Array.isArray(a) ? a : [a]

/** Actions that end the list when their condition holds. */
const ENDS = new Set(['go-to-step', 'go-to-page', 'finish', 'stay'])

/** A step as the funnel runs it: the shared step with the funnel's overrides laid over. */
export type FlowStep = Pick<Step, 'name' | 'title' | 'fields' | 'skippable' | 'onEnter' | 'onSubmit'> & {
  stepId: string
}

export function resolveFlowSteps(
  funnel: Pick<Funnel, 'steps'>,
  steps: ReadonlyMap<string, Step>,
): FlowStep[] {
  const out: FlowStep[] = []
  for (const ref of funnel.steps) {
    const step = steps.get(ref.step)
    if (!step) continue
    out.push({ ...step, ...(ref.overrides ?? {}), stepId: step.id } as FlowStep)
  }
  return out
}

/** Where an edge goes: a step (by index), the page's destination, or another page. */
export type FlowTarget = { kind: 'step'; index: number } | { kind: 'finish' } | { kind: 'page'; path: string }

export interface FlowEdge {
  from: number
  to: FlowTarget
  /** `submit` after the step's answers, `enter` when the step is entered (before it shows). */
  on: 'submit' | 'enter'
  /** The condition in words; null when the edge is taken unconditionally or as the fallback. */
  when: string | null
  /** The fall-through to the next step (or the destination) when no action ended the list. */
  fallback: boolean
}

export interface FunnelFlow {
  steps: { name: string; stepId: string; title: string }[]
  edges: FlowEdge[]
  /** `go-to-step` targets that name no step of this funnel, with where they are. */
  missingTargets: { from: number; step: string }[]
  /** Steps no edge reaches (the first step is always reached). */
  unreachable: number[]
  /** Steps a visitor can never leave (every way out is `stay`). */
  deadEnds: number[]
}

/**
 * The flow between a funnel's steps: for each step, its `onEnter` and `onSubmit` actions that move
 * (go to a step or a page, finish) and the fall-through to the next step, in the order the machine
 * tries them. An unconditional move ends the list, as it does in the machine.
 */
export function funnelFlow(steps: readonly FlowStep[]): FunnelFlow {
  const index = new Map(steps.map((s, i) => [s.name, i]))
  const edges: FlowEdge[] = []
  const missingTargets: { from: number; step: string }[] = []
  const deadEnds: number[] = []
  steps.forEach((s, i) => {
    const scan = (list: SingleAction[], on: 'submit' | 'enter'): boolean => {
      for (const a of list) {
        if (!ENDS.has(a.type)) continue
        const when = 'when' in a && a.when ? conditionWords(a.when) : null
        if (a.type === 'stay') {
          if (!when) return true
          continue
        }
        let to: FlowTarget
        if (a.type === 'go-to-step') {
          const t = index.get(a.step)
          if (t === undefined) {
            missingTargets.push({ from: i, step: a.step })
            if (!when) return true
            continue
          }
          to = { kind: 'step', index: t }
        } else if (a.type === 'go-to-page') to = { kind: 'page', path: a.path }
        else to = { kind: 'finish' }
        edges.push({ from: i, to, on, when, fallback: false })
        if (!when) return true
      }
      return false
    }
    // onEnter moves happen before the step shows; when none is unconditional, the step shows.
    if (scan(actionList(s.onEnter), 'enter')) return
    const before = edges.length
    const ended = scan(actionList(s.onSubmit), 'submit')
    if (ended) {
      if (edges.length === before) deadEnds.push(i)
      return
    }
    edges.push({
      from: i,
      to: i + 1 < steps.length ? { kind: 'step', index: i + 1 } : { kind: 'finish' },
      on: 'submit',
      when: null,
      fallback: true,
    })
  })
  const reached = new Set<number>([0])
  const queue = [0]
  while (queue.length) {
    const i = queue.shift() as number
    for (const e of edges)
      if (e.from === i && e.to.kind === 'step' && !reached.has(e.to.index)) {
        reached.add(e.to.index)
        queue.push(e.to.index)
      }
  }
  return {
    steps: steps.map((s) => ({ name: s.name, stepId: s.stepId, title: s.title })),
    edges,
    missingTargets,
    unreachable: steps.length ? steps.map((_, i) => i).filter((i) => !reached.has(i)) : [],
    deadEnds,
  }
}

/** The target of an edge in words: `step contact`, `the destination`, `page /call`. */
export function targetWords(t: FlowTarget, steps: FunnelFlow['steps']): string {
  return t.kind === 'step'
    ? `step ${steps[t.index]?.name}`
    : t.kind === 'finish'
      ? 'the destination'
      : `page ${t.path}`
}
