import type Router from '@koa/router'
import { assertCan } from '../../../engine/control-center/content/permissions'
import type { ApiCcPublish } from '../../../schemas/generated/api-cc-publish'
import type { ApiCcRollback } from '../../../schemas/generated/api-cc-rollback'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import { audit } from '../../store/auth-store'
import { cancelScheduledPublish, latestPublications, publicationCommits } from '../store/publication-store'
import { ccRoute } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** The live history lists this many publications, newest first. */
const PUBLICATIONS_LISTED = 100

/** Publish now or at a time, cancel a schedule, the live history, and roll back. */
export function registerPublishingApi(router: Router, deps: AppDeps): void {
  router.post(
    '/api/cc/branches/:b/publish',
    ccRoute(deps, 'CcPublished', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcPublish>(ctx, CC_SCHEMAS.publish)
      if (input.overrideBudget && input.at)
        throw new HttpError(400, '/overrideBudget: a gate override is for a publish now, not a scheduled one')
      if (input.at) {
        const at = new Date(input.at)
        if (at.getTime() < Date.now() - 60_000) throw new HttpError(400, '/at: is in the past')
        await content.publisher.schedule(user, ctx.params.b, { expectedHead: input.expectedHead, at })
        return { scheduled: { at: at.toISOString(), commit: input.expectedHead } }
      }
      const publication = await content.publisher.publish(user, ctx.params.b, {
        expectedHead: input.expectedHead,
        requireApproval: deps.config.requireApproval,
        ...(input.overrideBudget ? { overrideBudget: { reason: input.overrideBudget.reason.trim() } } : {}),
      })
      return { publication }
    }),
  )

  router.delete(
    '/api/cc/branches/:b/schedule',
    ccRoute(deps, 'BranchAnswer', async (ctx, { user, content, store }) => {
      assertCan(user, 'publish')
      const cancelled = await cancelScheduledPublish(store.db, ctx.params.b)
      if (!cancelled) throw new HttpError(404, `branch "${ctx.params.b}" has no scheduled publish`)
      await audit(store.db, { actor: user.id, action: 'publish.schedule-cancelled', target: ctx.params.b })
      return { branch: await content.queries.get(ctx.params.b, user) }
    }),
  )

  router.get(
    '/api/cc/publications',
    ccRoute(deps, 'CcPublicationList', async (_ctx, { content, store }) => {
      const rows = await latestPublications(store.db, PUBLICATIONS_LISTED)
      const people = await content.queries.people(rows.map((p) => p.actor))
      const publications = []
      for (const p of rows)
        publications.push({
          id: p.id,
          kind: p.kind,
          branch: p.branch,
          oldCommit: p.oldCommit,
          newCommit: p.newCommit,
          actor: p.actor
            ? (people.get(p.actor) ?? { id: p.actor, name: p.actor, email: '', role: '' })
            : null,
          at: p.at.toISOString(),
          files: p.oldCommit ? await content.repository.repo.changedPaths(p.oldCommit, p.newCommit) : [],
        })
      return { live: { commit: await content.repository.live() }, publications }
    }),
  )

  /** A publication's id from the path, or 400. */
  const publicationOf = (id: string) => {
    if (!/^\d{1,18}$/.test(id)) throw new HttpError(400, `:id: must be a publication id, not "${id}"`)
    return id
  }

  router.get(
    '/api/cc/publications/:id/diff',
    ccRoute(deps, 'CcDiff', async (ctx, { content, store }) => {
      const id = publicationOf(ctx.params.id)
      const row = await publicationCommits(store.db, id)
      if (!row) throw new HttpError(404, `unknown publication ${id}`)
      if (!row.oldCommit) return { base: null, head: row.newCommit, files: [] }
      return content.queries.commitDiff(row.oldCommit, row.newCommit)
    }),
  )

  router.post(
    '/api/cc/publications/:id/revert',
    ccRoute(deps, 'CcRevertBranch', async (ctx, { user, content }) => {
      const branch = await content.branches.revertPublication(user, publicationOf(ctx.params.id))
      ctx.status = 201
      return { branch }
    }),
  )

  router.post(
    '/api/cc/rollback',
    ccRoute(deps, 'CcRolledBack', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcRollback>(ctx, CC_SCHEMAS.rollback)
      return { publication: await content.publisher.rollback(user, input) }
    }),
  )
}
