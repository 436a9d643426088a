/**
 * The bounded mutant run of `npm test` (issue 38): a fixed, seeded sample of each modelled machine's
 * single-fault copies runs against the machine's generated tests; each copy must fail them, unless the
 * model lists it as equivalent with the reason. The funnel machine's copies run against the funnel
 * model's suite for the smallest catalogue funnel shape (seconds). `npm run mutants` runs every copy,
 * the funnel's on every shape.
 */
import { describe, expect, it } from 'vitest'
import { funnelShapeModels, runFunnelMutants } from './funnel-mutants'
import { MACHINE_MODELS } from './machines'
import { type MachineMutants, runMutants, unexplained } from './mutant-run'

/** Copies per machine in the bounded run, and the seed that picks them. */
const SAMPLE = 3
const SEED = 38
/** Funnel machine copies in the bounded run: each a suite of a few dozen paths and checks. */
const FUNNEL_SAMPLE = 4
/** A copy's suite is a few hundred replays on a simulated clock: seconds on a loaded machine. */
const TIMEOUT_MS = 60_000

const passes = (r: MachineMutants) => {
  expect(r.outcomes.length).toBeGreaterThan(0)
  expect(unexplained(r).map((o) => `${r.machine}: ${o.label}`)).toEqual([])
  expect(r.staleEquivalents).toEqual([])
}

describe('each machine fails its generated tests when broken (a seeded sample of its mutants)', () => {
  for (const model of MACHINE_MODELS)
    it(model.name, async () => passes(await runMutants(model, { sample: SAMPLE, seed: SEED })), TIMEOUT_MS)

  const smallest = funnelShapeModels().sort(
    (a, b) => a.shape.funnel.steps.length - b.shape.funnel.steps.length,
  )[0]
  it(
    `the funnel machine, on ${smallest.name}`,
    async () => passes(await runFunnelMutants(smallest, { sample: FUNNEL_SAMPLE, seed: SEED })),
    TIMEOUT_MS,
  )
})
