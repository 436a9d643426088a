/**
 * Presence (CONTROL-CENTER §2.5 A, docs/decisions/0950): "Dana is also editing this page" before a
 * conflict happens. An open editor sends a heartbeat; the others on the same branch and file are those
 * whose last heartbeat is younger than the expiry. Kept in `cc_presence`, so every instance sees
 * every editor.
 */

import type Router from '@koa/router'
import type { Context } from 'koa'
import type { ApiCcPresence } from '../../../schemas/generated/api-cc-presence'
import type { PresenceAnswer } from '../../../schemas/generated/cc-answers/presence'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import type { Queryable } from '../../store/db'
import { checkWritablePath } from '../services/branch-service'
import { leavePresence, notePresence, otherEditors } from '../store/presence-store'
import { checkPathInput } from './cc-input'
import { type Cc, ccRoute, queryValue } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** An open editor says "still here" this often. */
export const CC_PRESENCE_HEARTBEAT_MS = 15_000
/** …and counts as gone this long after its last heartbeat (three missed beats). */
export const CC_PRESENCE_EXPIRY_MS = 45_000
/** The editor asks who else is there this often between its heartbeats. */
export const CC_PRESENCE_POLL_MS = 5_000

export type { PresenceAnswer }

/** The branch must exist, and live is never edited. */
async function checkTarget(ctx: Context, { content }: Cc, path: string): Promise<string> {
  const branch = ctx.params.b
  if (branch === 'live') throw new HttpError(400, 'live is read-only: nobody edits it, so it has no presence')
  checkWritablePath(path)
  await content.branches.head(branch)
  return branch
}

async function others(db: Queryable, branch: string, path: string, me: string): Promise<PresenceAnswer> {
  const found = await otherEditors(db, { branch, path, me }, CC_PRESENCE_EXPIRY_MS)
  return {
    branch,
    path,
    others: found.map((o) => ({ id: o.id, name: o.name, since: o.since.toISOString() })),
    heartbeatMs: CC_PRESENCE_HEARTBEAT_MS,
    pollMs: CC_PRESENCE_POLL_MS,
    expiresMs: CC_PRESENCE_EXPIRY_MS,
  }
}

export function registerPresenceApi(router: Router, deps: AppDeps): void {
  // The heartbeat: I am editing `path` on this branch. Answers who else is.
  router.put(
    '/api/cc/branches/:b/presence',
    ccRoute(deps, 'PresenceAnswer', async (ctx, cc) => {
      const { path } = await readCcBody<ApiCcPresence>(ctx, CC_SCHEMAS.presence)
      checkPathInput('/path', path)
      const branch = await checkTarget(ctx, cc, path)
      const db = cc.store.db
      // A new stretch of editing (no row, or one that expired) starts `since` again.
      await notePresence(db, { userId: cc.user.id, branch, path }, CC_PRESENCE_EXPIRY_MS)
      return others(db, branch, path, cc.user.id)
    }),
  )

  router.get(
    '/api/cc/branches/:b/presence',
    ccRoute(deps, 'PresenceAnswer', async (ctx, cc) => {
      const path = queryValue(ctx, 'path')
      const branch = await checkTarget(ctx, cc, path)
      return others(cc.store.db, branch, path, cc.user.id)
    }),
  )

  // The editor closed: gone at once rather than at the expiry.
  router.delete(
    '/api/cc/branches/:b/presence',
    ccRoute(deps, 'CcPresenceLeft', async (ctx, cc) => {
      const path = queryValue(ctx, 'path')
      const branch = await checkTarget(ctx, cc, path)
      await leavePresence(cc.store.db, { userId: cc.user.id, branch, path })
      return { branch, path, left: true }
    }),
  )
}
