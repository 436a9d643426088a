/**
 * Drop-off of a funnel (issue 29, docs/decisions/0313): GET /api/cc/funnels/:id/dropoff?since&until&by
 * for the control center's funnel screen, and the same answer on /api/_ops/funnels/:id/dropoff for
 * `npm run funnels -- dropoff` while this server holds the PGlite folder. The funnel's steps and pages
 * come from the content being served.
 */
import type Router from '@koa/router'
import type { Context } from 'koa'
import { EVENT_TIMESTAMP_MAX_MS, EVENT_TIMESTAMP_MIN_MS } from '../../../engine/constants'
import { requireOpsChannel } from '../../api/ops-auth'
import { requireStore } from '../../api/require-store'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import type { Db } from '../../store/db'
import {
  DROPOFF_DIMENSIONS,
  type DropoffDimension,
  type DropoffReport,
  funnelDropoff,
  funnelScope,
} from '../../store/funnel-dropoff'
import { checkIsoDateInput } from './cc-input'
import { ccRoute } from './cc-route'

/** Without ?since, the drop-off covers this many days before ?until (default now). */
export const DROPOFF_DEFAULT_DAYS = 30
const DAY_MS = 86_400_000
const FUNNEL_ID = /^[a-z0-9][a-z0-9-]{0,80}$/

/** Reads ?since, ?until and ?by (400 naming a bad one) and answers the funnel's drop-off (404 unknown). */
async function dropoffFor(ctx: Context, deps: AppDeps, db: Db): Promise<DropoffReport> {
  const id = ctx.params.id
  if (!FUNNEL_ID.test(id)) throw new HttpError(400, `:id: funnel id "${id}" is not valid`)
  const date = (name: 'since' | 'until') => {
    const v = ctx.query[name]
    if (typeof v !== 'string' || v === '') return null
    checkIsoDateInput(`?${name}`, v)
    return new Date(v)
  }
  const until = date('until') ?? new Date()
  const since = date('since') ?? new Date(until.getTime() - DROPOFF_DEFAULT_DAYS * DAY_MS)
  if (since >= until) throw new HttpError(400, '?since: must be before ?until')
  if (since.getTime() < EVENT_TIMESTAMP_MIN_MS || until.getTime() > EVENT_TIMESTAMP_MAX_MS)
    throw new HttpError(
      400,
      `?since, ?until: the range must lie within ${new Date(EVENT_TIMESTAMP_MIN_MS).toISOString()} … ${new Date(EVENT_TIMESTAMP_MAX_MS).toISOString()}`,
    )
  const by = ctx.query.by
  if (by !== undefined && by !== '' && !(DROPOFF_DIMENSIONS as readonly unknown[]).includes(by))
    throw new HttpError(400, `?by: must be one of ${DROPOFF_DIMENSIONS.join(', ')}`)
  const scope = funnelScope(deps.snapshots.current, id)
  if (!scope) throw new HttpError(404, `unknown funnel "${id}" (not in the content being served)`)
  return funnelDropoff(db, {
    funnel: id,
    ...scope,
    since,
    until,
    by: by ? (by as DropoffDimension) : null,
  })
}

export function registerFunnelApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/funnels/:id/dropoff',
    ccRoute(deps, 'CcFunnelDropoff', async (ctx, { store }) => dropoffFor(ctx, deps, store.db)),
  )
}

/** The same answer for `npm run funnels -- dropoff`, on the operators' routes (with the other /api/_ops ones). */
export function registerFunnelOpsApi(router: Router, deps: AppDeps): void {
  router.get('/api/_ops/funnels/:id/dropoff', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await dropoffFor(ctx, deps, store.db)
  })
}
