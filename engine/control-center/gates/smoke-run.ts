/**
 * Smoke run before publish (CONTROL-CENTER §7 item 7): the shortest path to each end of every changed
 * funnel, replayed headlessly through a real actor of the funnel machine with inert dependencies (the
 * approach of tests/model/replay-path.ts). Each must end at the destination or on another page, with
 * progress rising and exactly one formStepSubmitted per step answered.
 */
import { createActor, waitFor } from 'xstate'
import type { FunnelDeps, FunnelPageInfo } from '../../funnel/funnel-deps'
import { FORM_STEP_SUBMITTED } from '../../funnel/funnel-deps'
import { MODEL_DEMAND } from '../../funnel/funnel-graph'
import { funnelMachineWith, progressOf } from '../../funnel/funnel-machine'
import type { FormValues } from '../../runtime-contracts'
import type { DefinitionError, ResolvedFunnel, Snapshot } from '../../snapshot/types'
import { changedFunnels, funnelFile, pageGroups } from './changed-funnels'
import {
  budgetOf,
  describeEnd,
  describePath,
  type ExploredPath,
  FunnelExplorer,
  GateBudgetError,
} from './funnel-explorer'
import { GATE_TIME_BUDGET_MS, SMOKE_SETTLE_MS } from './gate-constants'
import { gateBudgetError, gateError, type Locate } from './gate-errors'

interface Recorder {
  deps: FunnelDeps
  tracks: { event: string; properties: Record<string, unknown> }[]
  left: string | null
}

function recorder(): Recorder {
  const store = new Map<string, FormValues>()
  const r: Recorder = {
    tracks: [],
    left: null,
    deps: {
      emitter: {
        track: (event, properties = {}) => void r.tracks.push({ event, properties }),
        pageView: () => {},
      },
      demandCheck: async () => MODEL_DEMAND,
      storage: { read: (k) => ({ ...(store.get(k) ?? {}) }), write: (k, v) => void store.set(k, { ...v }) },
      navigation: {
        replace: () => {},
        push: () => {},
        back: () => {},
        leave: (url) => {
          r.left = url
        },
      },
    },
  }
  return r
}

const stable = (s: { status: string; value: unknown }) => s.status !== 'active' || s.value === 'showing'

/** Replays one path; returns what went wrong, or null. */
export async function replayOnMachine(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  path: ExploredPath,
): Promise<string | null> {
  const rec = recorder()
  const actor = createActor(funnelMachineWith(rec.deps), {
    input: { funnel, page, stepParam: undefined, basePath: '/smoke', search: '' },
  })
  try {
    actor.start()
    await waitFor(actor, stable, { timeout: SMOKE_SETTLE_MS })
    let progress = 0
    for (const [i, move] of path.moves.entries()) {
      const snap = actor.getSnapshot()
      if (snap.status !== 'active') return `ended before step "${funnel.steps[move.step].name}"`
      if (snap.context.stepIndex !== move.step)
        return `showed step "${funnel.steps[snap.context.stepIndex].name}" where step "${funnel.steps[move.step].name}" was expected`
      const shown = progressOf(snap.context)
      if (shown <= progress) return `progress did not rise on step "${funnel.steps[move.step].name}"`
      progress = shown
      actor.send(move.event as never)
      await waitFor(actor, stable, { timeout: SMOKE_SETTLE_MS })
      const submitted = rec.tracks.filter((t) => t.event === FORM_STEP_SUBMITTED)
      if (submitted.length !== i + 1)
        return `step "${funnel.steps[move.step].name}" reported ${submitted.length - i} formStepSubmitted events, not 1`
      if (submitted[i].properties.stepName !== funnel.steps[move.step].name)
        return `formStepSubmitted named step "${String(submitted[i].properties.stepName)}", not "${funnel.steps[move.step].name}"`
    }
    const end = actor.getSnapshot()
    if (end.status !== 'done') return 'did not end'
    if (end.value !== 'finished' && end.value !== 'left')
      return `ended ${String(end.value)} instead of at the destination or on another page`
    if (!rec.left) return 'ended without navigating anywhere'
    const expected = path.end.kind === 'refused' ? null : path.end.to
    if (rec.left !== expected) return `left for ${rec.left}, not ${expected}`
    return null
  } catch (e) {
    return `the machine did not settle (${(e as Error).message})`
  } finally {
    actor.stop()
  }
}

/** The smoke run over a publish: every changed funnel, once per distinct page destination. */
export async function smokeRun(
  live: Snapshot | null,
  candidate: Snapshot,
  options: { budgetMs?: number; now?: () => number; locate?: Locate } = {},
): Promise<DefinitionError[]> {
  const errors: DefinitionError[] = []
  for (const funnel of changedFunnels(live, candidate)) {
    const file = funnelFile(funnel.id)
    for (const { facts, pages } of pageGroups(candidate, funnel)) {
      const on = pages.length ? ` (pages ${pages.join(', ')})` : ''
      let paths: ExploredPath[]
      try {
        paths = new FunnelExplorer(funnel, facts).explore(
          budgetOf(options.budgetMs ?? GATE_TIME_BUDGET_MS, options.now),
        ).shortest
      } catch (e) {
        if (!(e instanceof GateBudgetError)) throw e
        errors.push(
          gateBudgetError(
            file,
            '/steps',
            `smoke run could not find the funnel's shortest paths within its budget (${e.message}), so publishing is refused${on}; an admin may publish with an override (audited)`,
            options.locate,
          ),
        )
        continue
      }
      if (!paths.some((p) => p.end.kind !== 'refused'))
        errors.push(gateError(file, '/steps', `smoke run: no path reaches an end${on}`, options.locate))
      for (const path of paths) {
        const label = describePath(funnel, path.moves)
        const problem =
          path.end.kind === 'refused'
            ? 'ends refused (the machine would not navigate there)'
            : await replayOnMachine(funnel, facts, path)
        if (problem)
          errors.push(
            gateError(
              file,
              `/steps/${path.moves.at(-1)?.step ?? 0}`,
              `smoke run: path ${label} to ${describeEnd(path.end)} failed: ${problem}${on}`,
              options.locate,
            ),
          )
      }
    }
  }
  return errors
}
