/**
 * The funnel machine's single-fault copies (issue 38) run against the funnel model's generated tests,
 * once per catalogue funnel shape (funnels of one shape have one graph): a copy is killed when its
 * suite fails — paths from the copy's own graph (funnel-paths.ts), their coverage of that graph, the
 * replay of each with the model's promises about each step (replay-path.ts: the events recorded,
 * the answers merged, the step advanced or gone back to, the URL) and the model's other checks
 * (funnel-checks.ts).
 */
import type { AnyStateMachine } from 'xstate'
import { type FunnelMachine, funnelMachine } from '../../engine/funnel/funnel-machine'
import { actionList } from '../../engine/funnel/run-actions'
import { type FunnelShape, funnelShapes } from './funnel-catalogue'
import { FUNNEL_CHECKS } from './funnel-checks'
import { assertFunnelCoverage, funnelCoverage, funnelModelPaths } from './funnel-paths'
import { type MachineMutants, runCopies } from './mutant-run'
import { mutantsOf } from './mutants'
import { replayPath } from './replay-path'

export interface FunnelShapeModel {
  /** `funnel:<id>`, the id of the shape's first funnel; `npm run mutants -- funnel:<any of its ids>`. */
  name: string
  shape: FunnelShape
  /** Copies no test of this shape can tell from the machine, by label, with the reason. */
  equivalentMutants: Record<string, string>
}

const lines = (e: unknown, n = 1) =>
  String((e as Error)?.message ?? e)
    .split('\n')
    .slice(0, n)
    .join(' ')

/** The first failure of the funnel model's generated suite for this shape, run on `machine`; null when it passes. */
export async function firstFunnelFailure(
  { funnel, page }: FunnelShape,
  machine: FunnelMachine = funnelMachine,
): Promise<string | null> {
  // The checks first: a few actors each, where the paths explore the copy's graph.
  for (const check of FUNNEL_CHECKS)
    try {
      await check.run(funnel, page, machine)
    } catch (e) {
      return `${check.title}: ${lines(e)}`
    }
  let paths: ReturnType<typeof funnelModelPaths>
  try {
    paths = funnelModelPaths(funnel, page, { machine })
  } catch (e) {
    return `its graph cannot be explored: ${lines(e)}`
  }
  if (!paths.some((p) => p.kind === 'complete')) return 'no path reaches the end of the funnel'
  try {
    assertFunnelCoverage(funnel, funnelCoverage(funnel, page, paths, machine))
  } catch (e) {
    return lines(e, 2)
  }
  for (const p of paths)
    try {
      const browser = await replayPath(funnel, page, p.input, p.path, machine)
      if (p.kind === 'complete' && browser.left === null) return `path ${p.n} (${p.line}) leaves for nowhere`
    } catch (e) {
      return `path ${p.n} (${p.line}): ${lines(e)}`
    }
  return null
}

/** A copy's suite may compute this many times the machine's transitions (and at least SUITE_FLOOR). */
const SUITE_GROWTH = 4
const SUITE_FLOOR = 20_000

/** The machine, counting every transition computed on it (or on a machine it provides): past `max`, it throws. */
export function countingMachine(machine: FunnelMachine, max = Number.POSITIVE_INFINITY) {
  const counted = { transitions: 0 }
  const wrap = <T extends object>(m: T): T =>
    new Proxy(m, {
      get(target, key) {
        const v = Reflect.get(target, key, target)
        if (key === 'transition')
          return (...args: unknown[]) => {
            if (++counted.transitions > max)
              throw new Error(`its suite computes more than ${max} transitions (a graph without end)`)
            return (v as (...a: unknown[]) => unknown).apply(target, args)
          }
        if (key === 'provide')
          return (impl: unknown) => wrap((v as (i: unknown) => object).call(target, impl))
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
  return { machine: wrap(machine), counted }
}

/** One model per catalogue funnel shape. */
export function funnelShapeModels(shapes = funnelShapes()): FunnelShapeModel[] {
  return shapes.map((shape) => ({
    name: `funnel:${shape.funnel.id}`,
    shape,
    equivalentMutants: funnelEquivalents(shape),
  }))
}

/** The shape's model by any funnel id of the shape (`funnel:quiz-otc` is the shape of ac-v1). */
export const funnelShapeNamed = (models: FunnelShapeModel[], name: string) =>
  models.find((m) => m.name === name || m.shape.same.some((id) => `funnel:${id}` === name))

/** Every single-fault copy of the funnel machine (or a seeded sample), run against this shape's suite. */
export async function runFunnelMutants(
  model: FunnelShapeModel,
  opts: { sample?: number; seed?: number } = {},
): Promise<MachineMutants> {
  // A copy whose suite computes far more than the machine's has a graph without end: it would never finish.
  const real = countingMachine(funnelMachine)
  const failure = await firstFunnelFailure(model.shape, real.machine)
  if (failure) throw new Error(`${model.name}: the funnel machine fails its own suite: ${failure}`)
  const max = Math.max(SUITE_FLOOR, SUITE_GROWTH * real.counted.transitions)
  return runCopies(
    model.name,
    mutantsOf(funnelMachine as unknown as AnyStateMachine),
    model.equivalentMutants,
    (copy) => firstFunnelFailure(model.shape, countingMachine(copy as unknown as FunnelMachine, max).machine),
    opts,
  )
}

/**
 * The copies this shape's tests cannot tell from the machine, with the reason (issue 38): each rule
 * holds of every funnel of the shape or of the machine itself, and picks copies by label. A listed copy
 * that the suite kills fails the run (`staleEquivalents`), so a rule stays true as funnels change.
 */
function funnelEquivalents({ funnel }: FunnelShape): Record<string, string> {
  const noEnterActions = funnel.steps.every((s) => actionList(s.onEnter).length === 0)
  const noSkippable = funnel.steps.every((s) => !s.skippable)
  const actions = funnel.steps.flatMap((s) => [...actionList(s.onEnter), ...actionList(s.onSubmit)])
  const none = (type: string) => !actions.some((a) => a.type === type)
  const rules: { when: boolean; picks: (label: string) => boolean; why: string }[] = [
    {
      when: noEnterActions,
      picks: (l) =>
        l.startsWith('entering —invoke.') ||
        /^entering —on\.(SUBMIT|SKIP)→ \(stays\): action queueAnswer dropped$/.test(l) ||
        l === 'entering —always [noEnterActions]→ showing: guard dropped' ||
        l.startsWith('showing —always→ (stays): action '),
      why: 'no step of this funnel has on-enter actions: entering shows each step at once, so their answer, an answer queued while they run and the guard that skips them never come into play',
    },
    {
      when: noSkippable,
      picks: (l) => l.startsWith('showing —on.SKIP→'),
      why: 'no step of this funnel is skippable: a skip is never taken (a skip on any step does nothing, checked)',
    },
    {
      when: none('set-field'),
      picks: (l) => l === 'submitting —invoke.onDone→ deciding: action storeActionValues dropped',
      why: 'no action of this funnel sets an answer: the on-submit actions never change one to store',
    },
    {
      when: none('go-to-step'),
      picks: (l) => l.startsWith('deciding —always #2→'),
      why: 'no action of this funnel goes to a step: deciding never goes to one (its guard dropped, every answer would)',
    },
    {
      when: none('go-to-page'),
      picks: (l) => l.startsWith('deciding —always #3→') || l.startsWith('left entry:'),
      why: 'no action of this funnel goes to a page: deciding never leaves for one (its guard dropped, every answer would)',
    },
    {
      when: true,
      picks: (l) => /^deciding —always #5→ /.test(l),
      why: 'the snapshot refuses a destination the funnel may not navigate to (cross-checks), so deciding never refuses: where that branch would go is never taken',
    },
    {
      when: true,
      picks: (l) =>
        /^submitting —(always|invoke\.onError)→ deciding: action carryOn dropped$/.test(l) ||
        l === 'deciding —always #1→ showing: action clearOutcome dropped',
      why: 'every way into deciding sets the outcome first (the actions’ answer, or carry on) and deciding treats no outcome as carry on, so a stale or missing one is never read',
    },
    {
      when: true,
      picks: (l) => l === 'showing —on.BACK #2→ routing (was entering)',
      why: "the form's Back with no history behind it happens only on a page opened at a later step, never redirected: routing goes straight on to entering, with the same actions",
    },
  ]
  const labels = mutantsOf(funnelMachine as unknown as AnyStateMachine).map((m) => m.label)
  const out: Record<string, string> = {}
  for (const rule of rules.filter((r) => r.when))
    for (const label of labels.filter(rule.picks)) out[label] ??= rule.why
  return out
}
