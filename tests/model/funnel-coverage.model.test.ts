/**
 * Funnel coverage like a machine's: every step, exit and move of each catalogue funnel's graph is
 * walked by one of its model paths (funnel-paths.ts), or the run fails naming what is missed. Funnels
 * of the same shape have the same graph: each shape is checked once.
 */
import { describe, expect, it } from 'vitest'
import { funnelShapes } from './funnel-catalogue'
import { assertFunnelCoverage, funnelCoverage, funnelModelPaths } from './funnel-paths'

/** Exploring a graph takes a few seconds on a loaded 2-core machine. */
const GRAPH_TIMEOUT_MS = 60_000

const shapes = funnelShapes()

describe('funnel model paths cover their graph', () => {
  for (const { funnel, page, same } of shapes)
    it(
      `${funnel.id}${same.length ? ` (and ${same.length} of its shape)` : ''}: every step, exit and move`,
      () => assertFunnelCoverage(funnel, funnelCoverage(funnel, page, funnelModelPaths(funnel, page))),
      GRAPH_TIMEOUT_MS,
    )

  it(
    'a path set that misses a move fails, naming the move',
    () => {
      const { funnel, page } = shapes.find((s) => s.funnel.id === 'quiz-otc' || s.same.includes('quiz-otc'))!
      // The paths as they were before the covering ones: the form's Back on later steps missed.
      const without = funnelModelPaths(funnel, page, { coverEveryMove: false })
      expect(() => assertFunnelCoverage(funnel, funnelCoverage(funnel, page, without))).toThrow(
        /its model paths miss 2 of \d+ steps, exits and moves of its graph:\n {2}move name → medicaid\n {2}move contact → name/,
      )
    },
    GRAPH_TIMEOUT_MS,
  )
})
