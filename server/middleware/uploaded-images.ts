/**
 * Serves the control center's uploaded images, `/images/uploads/<id>.<sha8>.webp`, from the content
 * repository (they live only there, docs/decisions/0920). A published image is public: the name
 * carries the content's hash, so the answer never changes (`Cache-Control: immutable` for a year).
 * An image only on a branch is unpublished content (docs/decisions/0921): it is served only to a
 * staff member signed in on this host (from any staff branch: the control center's thumbnails) or
 * with a valid preview grant `?fw_preview=` (from that grant's branch), privately; anyone else gets 404.
 */
import type { Context, Middleware, Next } from 'koa'
import { PREVIEW_GRANT_PARAM } from '../../engine/constants'
import { IMAGE_UPLOADS_URL } from '../../engine/content/image-limits'
import { cookieName } from '../api/auth'
import type { ContentServices } from '../content/content-services'
import { LIVE_BRANCH, PUBLISHED_REF, STAFF_BRANCH_PREFIX } from '../content/git/branch-name'
import { UPLOADS_PATH } from '../control-center/services/uploaded-image-check'
import { sessionUser } from '../store/auth-store'
import type { Store } from '../store/open-store'
import { IMMUTABLE_CACHE } from './static-files'

const NAME = /^[a-z0-9][a-z0-9-]*\.[0-9a-f]{8}\.webp$/
/** Published lookups (commit + name → blob id, or null for none) remembered; bounded. */
const LOOKUP_CACHE_SIZE = 2_000
/** An unpublished image: the viewer's browser may keep it (its name never changes), no shared cache may. */
const PRIVATE_IMMUTABLE_CACHE = 'private, max-age=31536000, immutable'

export function uploadedImages(
  content: () => ContentServices | undefined,
  store: () => Store | undefined,
): Middleware {
  const published = new Map<string, string | null>()
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(IMAGE_UPLOADS_URL))
      return next()
    const name = ctx.path.slice(IMAGE_UPLOADS_URL.length)
    const cc = content()
    if (!NAME.test(name) || !cc) return next()
    const repo = cc.repository.repo
    const path = `${UPLOADS_PATH}${name}`
    const live = cc.live.commit ?? (await repo.resolve(PUBLISHED_REF))
    const key = `${live}:${name}`
    let blob = published.get(key)
    if (blob === undefined) {
      blob = live ? await repo.blobAt(live, path) : null
      published.set(key, blob)
      if (published.size > LOOKUP_CACHE_SIZE) published.delete(published.keys().next().value!)
    }
    if (blob) return send(ctx, next, cc, blob, IMMUTABLE_CACHE)
    for (const commit of await unpublishedCommits(ctx, cc, store())) {
      const found = await repo.blobAt(commit, path)
      if (found) return send(ctx, next, cc, found, PRIVATE_IMMUTABLE_CACHE)
    }
    return next()
  }
}

/** The branch heads this request may see unpublished images of: its grant's branch, or every staff branch for staff. */
async function unpublishedCommits(
  ctx: Context,
  cc: ContentServices,
  store: Store | undefined,
): Promise<string[]> {
  const token = ctx.query[PREVIEW_GRANT_PARAM]
  if (typeof token === 'string') {
    const grant = await cc.previews.check(token)
    const head = grant && grant.branch !== LIVE_BRANCH ? await cc.repository.head(grant.branch) : null
    return head ? [head] : []
  }
  const session = ctx.cookies.get(cookieName(ctx))
  if (!session || !store || !(await sessionUser(store.db, session))) return []
  return (await cc.repository.repo.listRefs(STAFF_BRANCH_PREFIX)).map((r) => r.commit)
}

async function send(ctx: Context, next: Next, cc: ContentServices, blob: string, cacheControl: string) {
  ctx.set('Cache-Control', cacheControl)
  ctx.set('ETag', `"${blob}"`)
  ctx.type = 'image/webp'
  ctx.status = 200
  if (ctx.fresh) {
    ctx.status = 304
    return
  }
  const data = await cc.repository.repo.read(blob)
  if (!data) return next()
  ctx.body = data
}
