/**
 * Serves the control center's uploaded images, `/images/uploads/<id>.<sha8>.webp`, from the content
 * repository (they live only there, docs/decisions/0920): the published commit first, then staff
 * branches so previews show an image before it is published. The name carries the content's hash,
 * so the answer never changes: `Cache-Control: immutable` for a year.
 */
import type { Middleware } from 'koa'
import { IMAGE_UPLOADS_URL } from '../../engine/content/image-limits'
import type { ContentRepository } from '../content/content-repository'
import { PUBLISHED_REF, STAFF_BRANCH_PREFIX } from '../content/git/branch-name'
import { CONTENT_IMAGES } from '../content/git/import-content'
import { IMMUTABLE_CACHE } from './static-files'

const NAME = /^[a-z0-9][a-z0-9-]*\.[0-9a-f]{8}\.webp$/
/** Names → blob ids remembered (a name's content never changes); bounded. */
const BLOB_CACHE_SIZE = 2_000
/**
 * A name found nowhere is not looked up again for this long: a hashed name is never asked for before
 * it exists, so misses are typos and scanners, and each lookup costs a git process.
 */
const MISS_TTL_MS = 60_000

export function uploadedImages(repository: () => ContentRepository | undefined): Middleware {
  const blobs = new Map<string, string>()
  const misses = new Map<string, number>()
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(IMAGE_UPLOADS_URL))
      return next()
    const name = ctx.path.slice(IMAGE_UPLOADS_URL.length)
    const content = repository()
    if (!NAME.test(name) || !content) return next()
    const path = `${CONTENT_IMAGES}/uploads/${name}`
    let blob = blobs.get(name)
    if (!blob && (misses.get(name) ?? 0) > Date.now()) return next()
    if (!blob) {
      const refs = [PUBLISHED_REF, ...(await content.repo.listRefs(STAFF_BRANCH_PREFIX)).map((r) => r.commit)]
      for (const ref of refs) {
        const commit = ref === PUBLISHED_REF ? await content.repo.resolve(ref) : ref
        const found = commit ? await content.repo.blobAt(commit, path) : null
        if (found) {
          blob = found
          break
        }
      }
      if (!blob) {
        misses.set(name, Date.now() + MISS_TTL_MS)
        if (misses.size > BLOB_CACHE_SIZE) misses.delete(misses.keys().next().value!)
        return next()
      }
      blobs.set(name, blob)
      if (blobs.size > BLOB_CACHE_SIZE) blobs.delete(blobs.keys().next().value!)
    }
    ctx.set('Cache-Control', IMMUTABLE_CACHE)
    ctx.set('ETag', `"${blob}"`)
    ctx.type = 'image/webp'
    ctx.status = 200
    if (ctx.fresh) {
      ctx.status = 304
      return
    }
    const data = await content.repo.read(blob)
    if (!data) return next()
    ctx.body = data
  }
}
