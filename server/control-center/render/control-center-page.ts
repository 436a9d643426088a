/**
 * The control center's pages on the control-center brand (CONTROL-CENTER §1.1, docs/decisions/0604):
 * exactly the spec's paths; signed out → the sign-in panel in place (401); a branch screen without
 * `?branch=` → 302 to the last branch used (cookie) or live; an unknown branch or document → the
 * spec's 404. Never cached: the HTML names the signed-in staff member.
 */
import type { Context, Middleware } from 'koa'
import { CONTROL_CENTER_BRAND_ID } from '../../../engine/constants'
import {
  CC_BRANCH_NAME,
  CC_LAST_BRANCH_COOKIE,
  type ControlCenterMatch,
  type ControlCenterRoute,
  LIVE_BRANCH_NAME,
  matchControlCenterRoute,
} from '../../../engine/render/control-center-routes'
import { routeValidationFailed } from '../../../engine/render/error-info'
import type { Resolution } from '../../../engine/render/resolution'
import { cookieName } from '../../api/auth'
import type { AppDeps } from '../../app-deps'
import { hostCookieName } from '../../http/request-client'
import {
  errorResolution,
  type RequestFacts,
  type ResolveOptions,
  resolutionBase,
} from '../../render/resolve-request'
import { renderResolution } from '../../render/vike-render'
import { sessionUser } from '../../store/auth-store'
import { ContentError } from '../services/content-errors'

/** How long the last-branch cookie lasts (a convenience, not a session). */
const LAST_BRANCH_MAX_AGE_MS = 90 * 24 * 60 * 60_000

/** Where a document named by a detail route lives in the content repository. */
const DOCUMENT_FOLDERS: Partial<Record<ControlCenterMatch['screen'], { param: string; folder: string }>> = {
  page: { param: 'page', folder: 'definitions/pages' },
  experiment: { param: 'experiment', folder: 'definitions/experiments' },
  image: { param: 'image', folder: 'definitions/images' },
}

export function controlCenterPages(
  deps: AppDeps,
  factsOf: (ctx: Context) => RequestFacts,
  opts: ResolveOptions,
): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.state.brandId !== CONTROL_CENTER_BRAND_ID)
      return next()
    const match = matchControlCenterRoute(ctx.path)
    if (!match) return next()
    ctx.set('Cache-Control', 'no-store')
    ctx.set('X-Robots-Tag', 'noindex')
    const facts = factsOf(ctx)
    const snapshot = deps.snapshots.current
    const brand = snapshot.brands.get(CONTROL_CENTER_BRAND_ID) ?? null
    const user = await signedInUser(ctx, deps)
    const route = (screen: ControlCenterRoute['screen'], branch: string | null): Resolution => ({
      ...resolutionBase(snapshot, brand, null, facts, opts),
      view: 'control-center',
      pageId: 'control-center',
      statusCode: screen === 'sign-in' ? 401 : 200,
      page: null,
      params: match.params,
      controlCenter: { screen, params: match.params, branch, user },
    })
    if (!user) return renderResolution(ctx, route('sign-in', null))

    const branch = match.underBranch ? ctx.query.branch : match.params.branch
    if (match.underBranch && (branch === undefined || branch === '')) {
      const last = ctx.cookies.get(hostCookieName(ctx, CC_LAST_BRANCH_COOKIE))
      const to = new URLSearchParams(ctx.querystring)
      to.set('branch', last && CC_BRANCH_NAME.test(last) ? last : LIVE_BRANCH_NAME)
      ctx.status = 302
      ctx.redirect(`${ctx.path}?${to}`)
      return
    }
    const named = match.underBranch || match.screen === 'branch'
    const head = typeof branch === 'string' ? await branchHead(deps, branch) : null
    const draftOf = async (path: string) =>
      typeof branch === 'string' && branch !== LIVE_BRANCH_NAME
        ? (await deps.content!.branches.drafts(user.id, branch)).some(
            (d) => d.path === path && d.text !== null,
          )
        : false
    if (named && (!head || !(await documentExists(deps, match, head, draftOf))))
      return notFound(ctx, deps, facts, opts)
    if (match.underBranch)
      // Secure, host-only, path / over HTTPS, as the session's (decision 0331).
      ctx.cookies.set(hostCookieName(ctx, CC_LAST_BRANCH_COOKIE), branch as string, {
        path: '/',
        maxAge: LAST_BRANCH_MAX_AGE_MS,
        httpOnly: true,
        sameSite: 'lax',
        overwrite: true,
      })
    await renderResolution(ctx, route(match.screen, named ? (branch as string) : null))
    ctx.set('Cache-Control', 'no-store')
  }
}

async function notFound(ctx: Context, deps: AppDeps, facts: RequestFacts, opts: ResolveOptions) {
  const snapshot = deps.snapshots.current
  const brand = snapshot.brands.get(CONTROL_CENTER_BRAND_ID) ?? null
  await renderResolution(
    ctx,
    errorResolution(snapshot, brand, facts, opts, routeValidationFailed(facts.pathname)),
  )
}

/** The staff member of this request's session, or null. */
async function signedInUser(ctx: Context, deps: AppDeps): Promise<ControlCenterRoute['user']> {
  if (!deps.store) return null
  const token = ctx.cookies.get(cookieName(ctx))
  if (!token) return null
  const user = await sessionUser(deps.store.db, token)
  return user ? { id: user.id, name: user.name, email: user.email, role: user.role } : null
}

/** The branch's head commit, or null when no such branch exists (or the content services are off). */
async function branchHead(deps: AppDeps, branch: string): Promise<string | null> {
  if (branch !== LIVE_BRANCH_NAME && !CC_BRANCH_NAME.test(branch)) return null
  const repository = deps.content?.repository
  if (!repository) return null
  return repository.head(branch)
}

/**
 * A detail route's document exists on the branch, or as the user's draft there (a page made by New
 * page or Duplicate is a draft until committed); a run: its row exists, whichever branch it targets.
 */
async function documentExists(
  deps: AppDeps,
  match: ControlCenterMatch,
  head: string,
  draftOf: (path: string) => Promise<boolean>,
): Promise<boolean> {
  if (match.screen === 'content-factory-run') {
    const id = match.params.run
    if (!/^\d{1,18}$/.test(id)) return false
    return deps.content!.runs.get(id).then(
      () => true,
      (e) => {
        if (e instanceof ContentError) return false
        throw e
      },
    )
  }
  const where = DOCUMENT_FOLDERS[match.screen]
  if (!where) return true
  const id = match.params[where.param]
  if (!id || id.includes('/') || id.startsWith('.')) return false
  const repo = deps.content!.repository.repo
  const path = `${where.folder}/${id}.json`
  return (await repo.blobAt(head, path)) !== null || (await draftOf(path))
}
