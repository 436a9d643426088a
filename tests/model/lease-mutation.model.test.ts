/**
 * The generated machine tests catch a broken machine: every copy of the phone lease machine with one
 * transition sent to another state is tested from its own graph (as a broken machine would be), and
 * at least one generated test of each fails — above all when the 4 s check no longer comes back. (The
 * unbroken machine's suite is tests/model/machines.model.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { leaseMachine } from '../../engine/phone/lease-machine'
import { type MachineModel, modelPaths, PathFailure, replayModelPath } from './machine-model'
import { leaseModel } from './machines'
import { retargetedCopies } from './mutants'

/** Runs the generated suite of a model: the failures of its coverage checks and of its paths. */
async function generatedFailures(model: MachineModel, firstOnly = false): Promise<string[]> {
  const { paths, coverage } = modelPaths(model)
  const failures = coverage.states.filter((s) => !s.covered).map((s) => `state ${s.id} is reached by no path`)
  for (const path of paths) {
    if (firstOnly && failures.length > 0) break
    await replayModelPath(model, path).catch((e: unknown) => {
      if (!(e instanceof PathFailure)) throw e
      failures.push(e.message)
    })
  }
  return failures
}

/**
 * Copies that behave exactly as the machine does, so no test can tell them apart: when the IP becomes
 * known no lease is held yet, so "checking" always goes on to "requesting".
 */
const EQUIVALENT = ['waitingForIp —on.IP_KNOWN→ requesting (was checking)']

describe('a broken lease machine fails its generated tests', () => {
  const mutants = retargetedCopies(leaseMachine)

  it('the 4 s check going back to "waiting for the IP" fails a generated test', async () => {
    const broken = mutants.find(
      (m) => m.label.startsWith('waiting —after.') && m.label.includes('→ waitingForIp'),
    )
    expect(broken).toBeDefined()
    const [first] = await generatedFailures({ ...leaseModel, machine: broken!.machine }, true)
    // The failure reads as a path and the command that replays it.
    expect(first).toMatch(/^lease path \d+, step \d+: broke the promise "[^"]+"/)
    expect(first).toMatch(/\n {2}path: ip known → .+\n {2}replay: npm run paths -- lease --replay \d+$/)
  })

  it('every copy with one transition sent elsewhere fails at least one generated test', async () => {
    expect(mutants.length).toBeGreaterThan(10)
    const survivors: string[] = []
    for (const m of mutants)
      if ((await generatedFailures({ ...leaseModel, machine: m.machine }, true)).length === 0)
        survivors.push(m.label)
    expect(survivors).toEqual(EQUIVALENT)
  }, 30_000)
})
