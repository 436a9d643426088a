import type Router from '@koa/router'
import { parseForDiff } from '../../../engine/control-center/content/json-diff'
import {
  chanceToBeBest,
  compareToControl,
  enoughData,
  sampleRatioMismatch,
  type VariantCounts,
} from '../../../engine/control-center/experiments/stats'
import type { ApiCcEmergencyPause } from '../../../schemas/generated/api-cc-emergency-pause'
import type { ApiCcExperimentCreate } from '../../../schemas/generated/api-cc-experiment-create'
import type { ApiCcExperimentDecision } from '../../../schemas/generated/api-cc-experiment-decision'
import type {
  CcExperimentList,
  ExperimentPhase,
  ExperimentResults,
  Segment,
} from '../../../schemas/generated/cc-answers/experiments'
import type { Experiment } from '../../../schemas/generated/experiment'
import type { AppDeps } from '../../app-deps'
import type { ContentServices } from '../../content/content-services'
import { HttpError } from '../../http/http-error'
import type { Db } from '../../store/db'
import { EXPERIMENT_DIMENSIONS, type ExperimentDimension } from '../../store/experiment-results'
import { experimentTotals } from '../../store/rollups'
import {
  createExperiment,
  decideExperiment,
  emergencyPause,
  experimentAt,
  pageFileAt,
} from '../services/experiment-decisions'
import { publicationMoves } from '../store/publication-store'
import { ccRoute, queryValue } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** Results are one aggregate per experiment and phase, kept this long (CONTROL-CENTER §4). */
const RESULTS_CACHE_MS = 60_000
/** A drill-down shows this many segments (by users), the rest folded into "other". */
const TOP_SEGMENTS = 10

const EXPERIMENT_ID = /^[a-z0-9][a-z0-9-]{0,80}$/

/** Phases are found in at most this many publications, oldest first. */
const PHASE_PUBLICATIONS_READ = 1000

type Phase = ExperimentPhase

/**
 * The experiment's phases: a new one starts at each publication that changed its status or its
 * variants (docs/decisions/0900). Before the first such publication there is one open phase.
 */
async function phasesOf(content: ContentServices, db: Db, id: string, current: Experiment): Promise<Phase[]> {
  const path = `definitions/experiments/${id}.json`
  const moves = await publicationMoves(db, PHASE_PUBLICATIONS_READ)
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
  for (const p of moves) {
    const [before, after] = [await read(p.oldCommit), await read(p.newCommit)]
    if (after && key(before) !== key(after)) starts.push({ at: p.at.toISOString(), experiment: after })
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

/** Each variant's counts against control: rate, lift with its interval, chance to win, risk. */
function statsOf(ids: string[], counts: (VariantCounts & { started?: number })[], weights: number[]) {
  const control = counts[0]
  const best = chanceToBeBest(counts)
  return {
    srm: sampleRatioMismatch(
      counts.map((c) => c.users),
      weights,
    ),
    enoughData: counts.every(enoughData),
    variants: counts.map((c, i) => ({
      id: ids[i],
      weight: weights[i],
      users: c.users,
      leads: c.leads,
      ...(c.started !== undefined ? { started: c.started } : {}),
      rate: c.users ? c.leads / c.users : null,
      vsControl: i === 0 ? null : compareToControl(control, c),
      chanceToBeBest: best?.[i] ?? null,
    })),
  }
}

type ResultsBody = ExperimentResults

/** The published experiment's results for a phase (default the current one), optionally by a dimension. */
function resultsReader(content: ContentServices, db: Db) {
  const cache = new Map<string, { at: number; body: ExperimentResults }>()
  return async (
    id: string,
    wantedPhase: number | null,
    dimension: ExperimentDimension | null,
    fresh = false,
  ): Promise<ExperimentResults> => {
    const live = await content.repository.live()
    const found = live ? await experimentAt(content, live, id) : null
    if (!found || !live) throw new HttpError(404, `unknown experiment "${id}" (not published)`)
    const { experiment } = found
    const phases = await phasesOf(content, db, id, experiment)
    const phase = phases.find((p) => p.n === (wantedPhase ?? phases.length))
    if (!phase) throw new HttpError(400, `?phase: must be 1 to ${phases.length}`)
    const cacheKey = `${live}|${id}|${phase.n}|${phase.from}|${phase.to}|${dimension ?? ''}`
    const hit = cache.get(cacheKey)
    if (hit && !fresh && Date.now() - hit.at < RESULTS_CACHE_MS) return hit.body
    const totals = await experimentTotals(
      db,
      id,
      new Date(phase.from ?? 0),
      phase.to ? new Date(phase.to) : new Date(Date.now() + 86_400_000),
      dimension ?? undefined,
    )
    const page = await pageFileAt(content, live, experiment.page)
    const ids = experiment.variants.map((v) => v.id)
    const weights = ids.map((v) => phase.weights[v] ?? 0)
    const countsOf = (rows: { variant: string; users: number; leads: number; started: number }[]) =>
      ids.map((v) => rows.find((t) => t.variant === v) ?? { variant: v, users: 0, leads: 0, started: 0 })
    const build = (): ExperimentResults => {
      const overall = statsOf(ids, countsOf(totals.variants), weights)
      return {
        experiment: {
          id,
          page: experiment.page,
          pagePath: typeof page?.doc.path === 'string' ? page.doc.path : `/${experiment.page}`,
          brands: Array.isArray(page?.doc.brands) ? (page.doc.brands as string[]) : [],
          status: experiment.status,
          description: experiment.description ?? '',
          variants: experiment.variants,
        },
        phases,
        phase: phase.n,
        ...overall,
        multipleExposures: totals.multipleExposures,
        bots: totals.bots,
        daily: totals.daily,
        steps: totals.steps,
        dimension,
        segments: dimension ? segmentsOf(totals.segments ?? [], ids, weights) : null,
        computedAt: new Date().toISOString(),
      }
    }
    const body = build()
    cache.set(cacheKey, { at: Date.now(), body })
    if (cache.size > 200) cache.delete(cache.keys().next().value as string)
    return body
  }
}

/**
 * The drill-down's segments: the ten largest by users, then everything else as one "other" group
 * (flagged, so a real segment named "other" stays itself), each with the overall statistics.
 */
export function segmentsOf(
  rows: { segment: string; variant: string; users: number; leads: number; started: number }[],
  ids: string[],
  weights: number[],
): Segment[] {
  const sizes = new Map<string, number>()
  for (const r of rows) sizes.set(r.segment, (sizes.get(r.segment) ?? 0) + r.users)
  const ranked = [...sizes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s]) => s)
  const top = ranked.slice(0, TOP_SEGMENTS)
  const rest = new Set(ranked.slice(TOP_SEGMENTS))
  const groups = [
    ...top.map((segment) => ({ segment, other: false })),
    ...(rest.size ? [{ segment: 'other', other: true }] : []),
  ]
  return groups.map(({ segment, other }) => {
    const inIt = rows.filter((r) => (other ? rest.has(r.segment) : r.segment === segment))
    const counts = ids.map((v) => {
      const mine = inIt.filter((r) => r.variant === v)
      return {
        users: mine.reduce((s, r) => s + r.users, 0),
        leads: mine.reduce((s, r) => s + r.leads, 0),
      }
    })
    return {
      segment,
      other,
      users: counts.reduce((s, c) => s + c.users, 0),
      ...statsOf(ids, counts, weights),
    }
  })
}

/** One experiment row of the list: definition on the branch, page and brands, results from live. */
async function listExperiments(
  content: ContentServices,
  branch: string,
  results: (id: string) => Promise<ResultsBody | null>,
): Promise<CcExperimentList> {
  const repo = content.repository.repo
  const head = await content.branches.head(branch)
  const live = await content.repository.live()
  const entries = (await repo.lsTree(head, ['definitions/experiments/'])).filter(
    (e) => e.type === 'blob' && e.path.endsWith('.json'),
  )
  const experiments: CcExperimentList['experiments'] = []
  for (const e of entries) {
    const id = e.path.slice('definitions/experiments/'.length, -'.json'.length)
    const doc = parseForDiff(await repo.readText(`${head}:${e.path}`)) as Partial<Experiment> | null
    if (!doc || typeof doc !== 'object') {
      experiments.push({ id, path: e.path, invalid: true })
      continue
    }
    const page = typeof doc.page === 'string' ? await pageFileAt(content, head, doc.page) : null
    const liveDoc = live ? await experimentAt(content, live, id) : null
    const r = liveDoc ? await results(id) : null
    const leader = r ? leaderOf(r) : null
    experiments.push({
      id,
      path: e.path,
      description: doc.description ?? '',
      page: doc.page ?? null,
      pageTitle: typeof page?.doc.title === 'string' ? page.doc.title : null,
      brands: Array.isArray(page?.doc.brands) ? (page.doc.brands as string[]) : [],
      status: doc.status ?? null,
      liveStatus: liveDoc?.experiment.status ?? null,
      variants: (doc.variants ?? []).map((v) => ({ id: v.id, weight: v.weight })),
      results: r
        ? {
            phase: r.phase,
            visitors: r.variants.reduce((s, v) => s + v.users, 0),
            enoughData: r.enoughData,
            leader: leader?.id ?? null,
            chanceToWin: leader?.chance ?? null,
            srm: { pValue: r.srm.pValue, mismatch: r.srm.mismatch },
            computedAt: r.computedAt,
          }
        : null,
    })
  }
  return { branch, head, experiments }
}

/**
 * The variant ahead: with two variants, the one whose chance to win (or lose) says it is better;
 * with more, the highest chance to be best. Null without enough data.
 */
function leaderOf(r: ResultsBody): { id: string; chance: number } | null {
  if (!r.enoughData || r.variants.length < 2) return null
  if (r.variants.length === 2) {
    const c = r.variants[1].vsControl?.chanceToWin
    if (c === undefined) return null
    return c >= 0.5 ? { id: r.variants[1].id, chance: c } : { id: r.variants[0].id, chance: 1 - c }
  }
  const best = r.variants.reduce((a, b) => ((b.chanceToBeBest ?? 0) > (a.chanceToBeBest ?? 0) ? b : a))
  return best.chanceToBeBest === null ? null : { id: best.id, chance: best.chanceToBeBest }
}

/** Experiment results with their statistics, the list of a branch, and decisions as commits (issue 16). */
export function registerExperimentApi(router: Router, deps: AppDeps): void {
  let reader: ReturnType<typeof resultsReader> | null = null
  const results = (content: ContentServices, db: Db) => {
    reader ??= resultsReader(content, db)
    return reader
  }

  router.get(
    '/api/cc/experiments',
    ccRoute(deps, 'CcExperimentList', async (ctx, { content, store }) => {
      const branch = queryValue(ctx, 'branch')
      const read = results(content, store.db)
      return listExperiments(content, branch, (id) => read(id, null, null).catch(() => null))
    }),
  )

  router.get(
    '/api/cc/experiments/:id/results',
    ccRoute(deps, 'ExperimentResults', async (ctx, { content, store }) => {
      const id = ctx.params.id
      if (!EXPERIMENT_ID.test(id)) throw new HttpError(400, `experiment id "${id}" is not valid`)
      const phase = typeof ctx.query.phase === 'string' ? Number(ctx.query.phase) : null
      const d = ctx.query.dimension
      if (d !== undefined && !(EXPERIMENT_DIMENSIONS as readonly unknown[]).includes(d))
        throw new HttpError(400, `?dimension: must be ${EXPERIMENT_DIMENSIONS.join(', ')}`)
      return results(content, store.db)(
        id,
        phase,
        (d as ExperimentDimension | undefined) ?? null,
        ctx.query.refresh !== undefined,
      )
    }),
  )

  router.post(
    '/api/cc/branches/:b/experiments',
    ccRoute(deps, 'CcExperimentCreated', async (ctx, { user, content, store }) => {
      const input = await readCcBody<ApiCcExperimentCreate>(ctx, CC_SCHEMAS.experimentCreate)
      const result = await createExperiment(content, store.db, user, ctx.params.b, input)
      ctx.status = 201
      return { ...result, path: result.paths[0] }
    }),
  )

  router.post(
    '/api/cc/branches/:b/experiments/:id/decisions',
    ccRoute(deps, 'CommitMade', async (ctx, { user, content, store }) => {
      const input = await readCcBody<ApiCcExperimentDecision>(ctx, CC_SCHEMAS.experimentDecision)
      if (!EXPERIMENT_ID.test(ctx.params.id))
        throw new HttpError(400, `experiment id "${ctx.params.id}" is not valid`)
      const result = await decideExperiment(content, store.db, user, ctx.params.b, ctx.params.id, input)
      ctx.status = 201
      return result
    }),
  )

  router.post(
    '/api/cc/experiments/:id/emergency-pause',
    ccRoute(deps, 'CcEmergencyPaused', async (ctx, { user, content, store }) => {
      const input = await readCcBody<ApiCcEmergencyPause>(ctx, CC_SCHEMAS.emergencyPause)
      if (!EXPERIMENT_ID.test(ctx.params.id))
        throw new HttpError(400, `experiment id "${ctx.params.id}" is not valid`)
      return emergencyPause(content, store.db, user, ctx.params.id, input.reason?.trim() ?? '')
    }),
  )
}
