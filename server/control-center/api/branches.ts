import type Router from '@koa/router'
import { can, STAFF_ACTIONS } from '../../../engine/control-center/content/permissions'
import type { ApiCcBranchCreate } from '../../../schemas/generated/api-cc-branch-create'
import type { ApiCcBranchUpdate } from '../../../schemas/generated/api-cc-branch-update'
import type { ApiCcCommit } from '../../../schemas/generated/api-cc-commit'
import type { ApiCcDraft } from '../../../schemas/generated/api-cc-draft'
import type { ApiCcMergeLive } from '../../../schemas/generated/api-cc-merge-live'
import type { ApiCcReview } from '../../../schemas/generated/api-cc-review'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import { checkWritablePath } from '../services/branch-service'
import { checkPathInput } from './cc-input'
import { ccRoute, queryValue } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** `Spring promo!` → `spring-promo`: a branch name from a title. */
export function branchNameFrom(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '')
  return slug === 'live' ? 'live-2' : slug || 'branch'
}

/** Branches, files, drafts, commits, diff, checks, history, reviews and Update from live. */
export function registerBranchApi(router: Router, deps: AppDeps): void {
  const { config } = deps

  router.get(
    '/api/cc/status',
    ccRoute(deps, 'CcStatus', async (_ctx, { user, content }) => ({
      user,
      permissions: Object.fromEntries(STAFF_ACTIONS.map((a) => [a, can(user, a)])),
      contentSource: config.contentSource,
      live: { commit: await content.queries.liveCommit() },
      requireApproval: config.requireApproval,
    })),
  )

  router.get(
    '/api/cc/branches',
    ccRoute(deps, 'CcBranchList', async (ctx, { content }) => ({
      live: { commit: await content.queries.liveCommit() },
      branches: await content.queries.list({ archived: ctx.query.archived === '1' }),
    })),
  )

  router.post(
    '/api/cc/branches',
    ccRoute(deps, 'BranchAnswer', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcBranchCreate>(ctx, CC_SCHEMAS.branchCreate)
      const name = input.name ?? branchNameFrom(input.title)
      await content.branches.createBranch(user, {
        name,
        title: input.title.trim(),
        description: input.description,
        base: input.base,
      })
      ctx.status = 201
      return { branch: await content.queries.get(name, user) }
    }),
  )

  router.get(
    '/api/cc/branches/:b',
    ccRoute(deps, 'BranchAnswer', async (ctx, { user, content }) => ({
      branch: await content.queries.get(ctx.params.b, user),
    })),
  )

  router.patch(
    '/api/cc/branches/:b',
    ccRoute(deps, 'BranchAnswer', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcBranchUpdate>(ctx, CC_SCHEMAS.branchUpdate)
      await content.branches.update(user, ctx.params.b, input)
      return { branch: await content.queries.get(ctx.params.b, user) }
    }),
  )

  router.delete(
    '/api/cc/branches/:b',
    ccRoute(deps, 'CcBranchArchived', async (ctx, { user, content }) => {
      const { ref, head } = await content.branches.archive(user, ctx.params.b)
      return { branch: { name: ctx.params.b, status: 'archived', head, archivedRef: ref } }
    }),
  )

  router.get(
    '/api/cc/branches/:b/files',
    ccRoute(deps, 'CcFileList', async (ctx, { user, content }) => {
      const kind = typeof ctx.query.kind === 'string' ? ctx.query.kind : undefined
      return content.queries.files(ctx.params.b, user, kind)
    }),
  )

  router.get(
    '/api/cc/branches/:b/file',
    ccRoute(deps, 'FileDoc', async (ctx, { user, content }) => {
      const path = queryValue(ctx, 'path')
      checkWritablePath(path)
      return content.queries.file(ctx.params.b, user, path)
    }),
  )

  router.get(
    '/api/cc/branches/:b/drafts',
    ccRoute(deps, 'CcDraftList', async (ctx, { user, content }) => {
      await content.branches.head(ctx.params.b)
      const drafts = await content.branches.drafts(user.id, ctx.params.b)
      return {
        drafts: drafts.map((d) => ({ path: d.path, updatedAt: d.updatedAt, deleted: d.text === null })),
        draftsHash: await content.branches.draftsHash(user.id, ctx.params.b),
      }
    }),
  )

  router.put(
    '/api/cc/branches/:b/drafts',
    ccRoute(deps, 'CcDraftSaved', async (ctx, { user, content }) => {
      const path = queryValue(ctx, 'path')
      const input = await readCcBody<ApiCcDraft>(ctx, CC_SCHEMAS.draft)
      const { draftsHash } = await content.branches.saveDraft(
        user,
        ctx.params.b,
        path,
        input.text,
        input.base,
      )
      const { errors } = await content.queries.errors(ctx.params.b, user)
      return { draftsHash, errors: errors.filter((e) => e.file === path), problems: errors.length }
    }),
  )

  router.delete(
    '/api/cc/branches/:b/drafts',
    ccRoute(deps, 'CcDraftDiscarded', async (ctx, { user, content }) => {
      const path = queryValue(ctx, 'path')
      await content.branches.head(ctx.params.b)
      await content.branches.discardDraft(user, ctx.params.b, path)
      return { draftsHash: await content.branches.draftsHash(user.id, ctx.params.b) }
    }),
  )

  router.post(
    '/api/cc/branches/:b/commits',
    ccRoute(deps, 'CcCommitted', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcCommit>(ctx, CC_SCHEMAS.commit)
      for (const [i, p] of (input.paths ?? []).entries()) checkPathInput(`/paths/${i}`, p)
      const result = await content.branches.commit(user, ctx.params.b, input)
      ctx.status = 201
      return result
    }),
  )

  router.get(
    '/api/cc/branches/:b/diff',
    ccRoute(deps, 'CcDiff', async (ctx, { content }) => content.queries.diff(ctx.params.b)),
  )

  router.get(
    '/api/cc/branches/:b/checks',
    ccRoute(deps, 'BranchChecks', async (ctx, { content }) => {
      const result = await content.publisher.check(ctx.params.b)
      return {
        commit: result.commit,
        ok: result.errors.length === 0,
        errors: result.errors,
        warnings: result.warnings,
        conflicts: result.conflicts,
        impact: result.impact,
      }
    }),
  )

  router.get(
    '/api/cc/branches/:b/problems',
    ccRoute(deps, 'CcProblems', async (ctx, { user, content }) => content.queries.errors(ctx.params.b, user)),
  )

  router.get(
    '/api/cc/branches/:b/history',
    ccRoute(deps, 'CcHistory', async (ctx, { content }) => {
      const path = typeof ctx.query.path === 'string' && ctx.query.path ? ctx.query.path : undefined
      return content.queries.history(ctx.params.b, 50, path)
    }),
  )

  router.post(
    '/api/cc/branches/:b/reviews',
    ccRoute(deps, 'BranchAnswer', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcReview>(ctx, CC_SCHEMAS.review)
      if (ctx.params.b === 'live') throw new HttpError(400, 'live cannot be reviewed')
      await content.branches.review(user, ctx.params.b, { ...input, requireApproval: config.requireApproval })
      return { branch: await content.queries.get(ctx.params.b, user) }
    }),
  )

  router.post(
    '/api/cc/branches/:b/merge-live',
    ccRoute(deps, 'CcMergedLive', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcMergeLive>(ctx, CC_SCHEMAS.mergeLive)
      return content.branches.mergeLive(user, ctx.params.b, input)
    }),
  )
}
