/**
 * Model-based tests of every machine in tests/model/machines.ts, generated from each machine's graph
 * (tests/model/machine-model.ts): each path is replayed against the real machine on a simulated clock,
 * checking the graph's state and every promise after each step. `npm run paths -- <name>` lists the
 * same paths; a failure names the path and the command that replays it.
 */
import { describe, expect, it } from 'vitest'
import { coverageLine, modelPaths, replayModelPath } from './machine-model'
import { MACHINE_MODELS } from './machines'

for (const model of MACHINE_MODELS) {
  const { paths, coverage } = modelPaths(model)
  describe(`machine ${model.name}: ${paths.length} paths, ${coverageLine(coverage)}`, () => {
    it('every state is reached by a path', () => {
      expect(coverage.states.filter((s) => !s.covered).map((s) => s.id)).toEqual([])
    })
    it('every transition is taken by a path', () => {
      expect(coverage.transitions.filter((t) => !t.covered).map((t) => t.label)).toEqual([])
    })
    for (const path of paths) it(`#${path.n} ${path.line}`, () => replayModelPath(model, path))
  })
}
