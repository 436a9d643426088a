/**
 * Runs a machine's generated tests against each of its single-fault copies (tests/model/mutants.ts):
 * a copy is killed when its generated suite — paths from its own graph, as a broken machine would be
 * tested — fails a coverage check or a promise of the model. A survivor is either equivalent (listed
 * in the model's `equivalentMutants` with the reason) or a promise the model lacks.
 */

import type { AnyStateMachine } from 'xstate'
import { seededRandom } from '../../engine/util/seeded-random'
import { type MachineModel, modelPaths, PathFailure, replayModelPath } from './machine-model'
import { type Mutant, type MutantKind, mutantsOf } from './mutants'

/** A copy's graph may grow to this many times the machine's (and at least GRAPH_FLOOR transitions). */
const GRAPH_GROWTH = 4
const GRAPH_FLOOR = 2_000

export interface MutantOutcome {
  kind: MutantKind
  label: string
  /** The first failure of the copy's generated suite; null when it survived. */
  killedBy: string | null
  /** Why a survivor cannot be told apart from the machine (from the model). */
  equivalent: string | null
}

export interface MachineMutants {
  machine: string
  total: number
  outcomes: MutantOutcome[]
  /**
   * Labels the model lists as equivalent that are not: their copy was killed, or (in a full run) no
   * copy has that label. A listing must stay true as the machine and its model change.
   */
  staleEquivalents: string[]
}

/** The first failure of the generated suite of `model` run against its own machine, or null. */
export async function firstGeneratedFailure(
  model: MachineModel,
  maxTransitions?: number,
): Promise<string | null> {
  let generated: ReturnType<typeof modelPaths>
  try {
    generated = modelPaths(model, { maxTransitions })
  } catch (e) {
    return `its graph cannot be explored: ${(e as Error).message.split('\n')[0]}`
  }
  const { paths, coverage } = generated
  // The generated suite's coverage checks (machines.model.test.ts): every state and transition.
  const lost = coverage.states.find((s) => !s.covered)
  if (lost) return `state ${lost.id} is reached by no path`
  const untaken = coverage.transitions.find((t) => !t.covered)
  if (untaken) return `transition ${untaken.label} is taken by no path`
  for (const path of paths)
    try {
      await replayModelPath(model, path)
    } catch (e) {
      if (!(e instanceof PathFailure)) return `path ${path.n} throws: ${(e as Error).message.split('\n')[0]}`
      return e.message.split('\n')[0]
    }
  return null
}

/** A fixed sample of `n` of the items, the same for the same seed. */
export function sampleOf<T>(items: T[], n: number, seed: number): T[] {
  if (items.length <= n) return items
  const next = seededRandom(seed)
  const pool = [...items]
  for (let i = pool.length - 1; i > 0; i--) {
    const j = next() % (i + 1)
    ;[pool[i], pool[j]] = [pool[j], pool[i]]
  }
  return pool.slice(0, n)
}

/** Every single-fault copy of the model's machine (or a seeded sample of them), killed or survived. */
export async function runMutants(
  model: MachineModel,
  opts: { sample?: number; seed?: number } = {},
): Promise<MachineMutants> {
  // A copy whose graph grows far past the machine's counts without end: its suite would never finish.
  const maxTransitions = Math.max(GRAPH_FLOOR, GRAPH_GROWTH * modelPaths(model).explored)
  return runCopies(
    model.name,
    mutantsOf(model.machine),
    model.equivalentMutants ?? {},
    (machine) => firstGeneratedFailure({ ...model, machine }, maxTransitions),
    opts,
  )
}

/**
 * The copies (or a seeded sample of them), each killed by the first failure of its suite or
 * survived; `equivalents` are the survivors no test can tell from the machine, by label, with why.
 */
export async function runCopies(
  name: string,
  all: Mutant[],
  equivalents: Record<string, string>,
  firstFailure: (machine: AnyStateMachine) => Promise<string | null>,
  opts: { sample?: number; seed?: number } = {},
): Promise<MachineMutants> {
  const chosen = opts.sample === undefined ? all : sampleOf(all, opts.sample, opts.seed ?? 38)
  const outcomes: MutantOutcome[] = []
  for (const m of chosen) {
    const killedBy = await firstFailure(m.machine)
    outcomes.push({
      kind: m.kind,
      label: m.label,
      killedBy,
      equivalent: killedBy === null ? (equivalents[m.label] ?? null) : null,
    })
  }
  const listed = Object.keys(equivalents)
  const killed = new Set(outcomes.filter((o) => o.killedBy !== null).map((o) => o.label))
  const labels = new Set(all.map((m) => m.label))
  const staleEquivalents = listed.filter(
    (label) => killed.has(label) || (opts.sample === undefined && !labels.has(label)),
  )
  return { machine: name, total: all.length, outcomes, staleEquivalents }
}

/** Survivors the model does not explain: each a promise the model lacks. */
export const unexplained = (r: MachineMutants) =>
  r.outcomes.filter((o) => o.killedBy === null && !o.equivalent)
