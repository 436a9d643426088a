import type Router from '@koa/router'
import {
  chanceToBeBest,
  compareToControl,
  enoughData,
  sampleRatioMismatch,
} from '../../../engine/experiments/stats'
import type { Experiment } from '../../../schemas/generated/experiment'
import type { AppDeps } from '../../app-deps'
import type { ContentServices } from '../../content/content-services'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { HttpError } from '../../http/http-error'
import type { Db } from '../../store/db'
import { experimentTotals } from '../../store/experiment-results'
import { ccRoute } from './cc-route'

/** Results are one aggregate per experiment and phase, kept this long (CONTROL-CENTER §4). */
const RESULTS_CACHE_MS = 60_000

interface Phase {
  /** 1-based, oldest first. */
  n: number
  from: string | null
  to: string | null
  status: string
  weights: Record<string, number>
}

/**
 * The experiment's phases: a new one starts at each publication that changed its status or its
 * variants (docs/decisions/0900). Before the first such publication there is one open phase.
 */
async function phasesOf(content: ContentServices, db: Db, id: string, current: Experiment): Promise<Phase[]> {
  const path = `definitions/experiments/${id}.json`
  const r = await db.query<{ old_commit: string | null; new_commit: string; at: Date | string }>(
    'SELECT old_commit, new_commit, at FROM content_publications ORDER BY id LIMIT 1000',
  )
  const repo = content.repository.repo
  const key = (e: Experiment | null) => (e ? JSON.stringify({ s: e.status, v: e.variants }) : '')
  const read = async (commit: string | null) => {
    if (!commit) return null
    const text = await repo.readText(`${commit}:${path}`)
    try {
      return text ? (JSON.parse(text) as Experiment) : null
    } catch {
      return null
    }
  }
  const starts: { at: string; experiment: Experiment }[] = []
  for (const p of r.rows) {
    const [before, after] = [await read(p.old_commit), await read(p.new_commit)]
    if (after && key(before) !== key(after))
      starts.push({ at: new Date(p.at).toISOString(), experiment: after })
  }
  const weights = (e: Experiment) => Object.fromEntries(e.variants.map((v) => [v.id, v.weight]))
  if (!starts.length)
    return [{ n: 1, from: null, to: null, status: current.status, weights: weights(current) }]
  return starts.map((s, i) => ({
    n: i + 1,
    from: s.at,
    to: starts[i + 1]?.at ?? null,
    status: s.experiment.status,
    weights: weights(s.experiment),
  }))
}

/** Experiment results with their statistics (issue 16). */
export function registerExperimentApi(router: Router, deps: AppDeps): void {
  const cache = new Map<string, { at: number; body: unknown }>()

  router.get(
    '/api/cc/experiments/:id/results',
    ccRoute(deps, async (ctx, { content, store }) => {
      const id = ctx.params.id
      if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(id))
        throw new HttpError(400, `experiment id "${id}" is not valid`)
      const live = await content.repository.repo.resolve(PUBLISHED_REF)
      const text = live
        ? await content.repository.repo.readText(`${live}:definitions/experiments/${id}.json`)
        : null
      if (!text) throw new HttpError(404, `unknown experiment "${id}" (not published)`)
      const experiment = JSON.parse(text) as Experiment
      const phases = await phasesOf(content, store.db, id, experiment)
      const wanted = typeof ctx.query.phase === 'string' ? Number(ctx.query.phase) : phases.length
      const phase = phases.find((p) => p.n === wanted)
      if (!phase) throw new HttpError(400, `?phase: must be 1 to ${phases.length}`)
      const cacheKey = `${id}|${phase.n}|${phase.from}|${phase.to}`
      const hit = cache.get(cacheKey)
      if (hit && Date.now() - hit.at < RESULTS_CACHE_MS) return hit.body
      const totals = await experimentTotals(
        store.db,
        id,
        new Date(phase.from ?? 0),
        phase.to ? new Date(phase.to) : new Date(Date.now() + 86_400_000),
      )
      const ids = experiment.variants.map((v) => v.id)
      const counts = ids.map(
        (v) => totals.variants.find((t) => t.variant === v) ?? { variant: v, users: 0, leads: 0, started: 0 },
      )
      const control = counts[0]
      const best = chanceToBeBest(counts)
      const body = {
        experiment: {
          id,
          page: experiment.page,
          status: experiment.status,
          description: experiment.description ?? '',
        },
        phases,
        phase: phase.n,
        srm: sampleRatioMismatch(
          counts.map((c) => c.users),
          ids.map((v) => phase.weights[v] ?? 0),
        ),
        multipleExposures: totals.multipleExposures,
        bots: totals.bots,
        enoughData: counts.every(enoughData),
        variants: counts.map((c, i) => ({
          id: c.variant,
          weight: phase.weights[c.variant] ?? 0,
          users: c.users,
          leads: c.leads,
          started: c.started,
          rate: c.users ? c.leads / c.users : null,
          vsControl: i === 0 ? null : compareToControl(control, c),
          chanceToBeBest: best?.[i] ?? null,
        })),
        daily: totals.daily,
        computedAt: new Date().toISOString(),
      }
      cache.set(cacheKey, { at: Date.now(), body })
      return body
    }),
  )
}
