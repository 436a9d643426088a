/**
 * The bounded mutant run of `npm test` (issue 38): a fixed, seeded sample of each modelled machine's
 * single-fault copies runs against the machine's generated tests; each copy must fail them, unless the
 * model lists it as equivalent with the reason. `npm run mutants` runs every copy.
 */
import { describe, expect, it } from 'vitest'
import { MACHINE_MODELS } from './machines'
import { runMutants, unexplained } from './mutant-run'

/** Copies per machine in the bounded run, and the seed that picks them. */
const SAMPLE = 3
const SEED = 38
/** A copy's suite is a few hundred replays on a simulated clock: seconds on a loaded machine. */
const TIMEOUT_MS = 60_000

describe('each machine fails its generated tests when broken (a seeded sample of its mutants)', () => {
  for (const model of MACHINE_MODELS)
    it(
      model.name,
      async () => {
        const r = await runMutants(model, { sample: SAMPLE, seed: SEED })
        expect(r.outcomes.length).toBeGreaterThan(0)
        expect(unexplained(r).map((o) => `${model.name}: ${o.label}`)).toEqual([])
        expect(r.staleEquivalents).toEqual([])
      },
      TIMEOUT_MS,
    )
})
