/**
 * The control center's images (CONTROL-CENTER §2 "Images", docs/decisions/0920):
 *   GET    /api/cc/branches/:b/images            every image with "used by"
 *   GET    /api/cc/branches/:b/images/:id        one image
 *   POST   /api/cc/branches/:b/images            raw image body (`Content-Type: image/*`, `X-Filename`),
 *                                                 `?alt=&decorative=1&credit=&id=`: 201, one commit
 *   PUT    /api/cc/branches/:b/images/:id        `{alt?, decorative?, credit?, expectedHead?}`
 *   PUT    /api/cc/branches/:b/images/:id/file   raw image body: replace, references updated
 *   DELETE /api/cc/branches/:b/images/:id        409 with `usedBy` while the image is used
 */
import type Router from '@koa/router'
import type { Context } from 'koa'
import { CC_BODY_LIMIT_BYTES } from '../../../engine/constants'
import { IMAGE_UPLOAD_MAX_BYTES } from '../../../engine/content/image-limits'
import type { AppDeps } from '../../app-deps'
import { errorBody, HttpError } from '../../http/http-error'
import { readBytes, readJson } from '../../http/read-json'
import { ImageInUseError } from '../services/image-library'
import { ccRoute } from './cc-route'

/** Paths whose writes carry raw image bytes instead of JSON (app.ts tells sameOriginWrites). */
export const IMAGE_UPLOAD_PATHS: readonly RegExp[] = [
  /^\/api\/cc\/branches\/[^/]+\/images(?:\/[^/]+\/file)?$/,
]

/** The uploaded file's name: `X-Filename` (percent-encoded, as the control center sends it). */
function filenameOf(ctx: Context): string {
  const raw = ctx.get('x-filename')
  if (!raw) return 'upload'
  try {
    return decodeURIComponent(raw).replace(/[\\/]/g, '_').slice(0, 255)
  } catch {
    throw new HttpError(400, 'X-Filename: is not valid percent-encoding')
  }
}

const queryText = (ctx: Context, name: string) => {
  const v = ctx.query[name]
  return typeof v === 'string' ? v : undefined
}

export function registerImageApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/images',
    ccRoute(deps, 'ImageList', async (_ctx, { content }) => content.images.list(_ctx.params.b)),
  )
  router.get(
    '/api/cc/branches/:b/images/:id',
    ccRoute(deps, 'CcImageAnswer', async (ctx, { content }) => {
      const { head, ...image } = await content.images.get(ctx.params.b, ctx.params.id)
      return { head, image }
    }),
  )
  router.post(
    '/api/cc/branches/:b/images',
    ccRoute(
      deps,
      'CcImageCommitted',
      async (ctx, { user, content }) => {
        const bytes = await readBytes(ctx, IMAGE_UPLOAD_MAX_BYTES)
        const decorative = queryText(ctx, 'decorative')
        const r = await content.images.upload(user, ctx.params.b, {
          bytes,
          filename: filenameOf(ctx),
          id: queryText(ctx, 'id') || undefined,
          alt: queryText(ctx, 'alt'),
          decorative: decorative === '1' || decorative === 'true',
          credit: queryText(ctx, 'credit'),
        })
        ctx.status = 201
        return r
      },
      { rawBody: true },
    ),
  )
  router.put(
    '/api/cc/branches/:b/images/:id/file',
    ccRoute(
      deps,
      'CcImageReplaced',
      async (ctx, { user, content }) => {
        const bytes = await readBytes(ctx, IMAGE_UPLOAD_MAX_BYTES)
        return content.images.replace(user, ctx.params.b, ctx.params.id, { bytes, filename: filenameOf(ctx) })
      },
      { rawBody: true },
    ),
  )
  router.put(
    '/api/cc/branches/:b/images/:id',
    ccRoute(deps, 'CcImageCommitted', async (ctx, { user, content }) => {
      const body = await readJson<Record<string, unknown>>(ctx, { limit: CC_BODY_LIMIT_BYTES })
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw new HttpError(400, 'body: must be a JSON object such as {"alt": "…"}')
      const input: { alt?: string; decorative?: boolean; credit?: string; expectedHead?: string } = {}
      for (const k of ['alt', 'credit', 'expectedHead'] as const) {
        if (body[k] === undefined) continue
        if (typeof body[k] !== 'string') throw new HttpError(400, `${k}: must be a string`)
        input[k] = body[k] as string
      }
      if (body.decorative !== undefined) {
        if (typeof body.decorative !== 'boolean')
          throw new HttpError(400, 'decorative: must be true or false')
        input.decorative = body.decorative
      }
      const unknown = Object.keys(body).filter(
        (k) => !['alt', 'credit', 'expectedHead', 'decorative'].includes(k),
      )
      if (unknown.length) throw new HttpError(400, `unknown field ${unknown.map((k) => `"${k}"`).join(', ')}`)
      return content.images.update(user, ctx.params.b, ctx.params.id, input)
    }),
  )
  router.delete(
    '/api/cc/branches/:b/images/:id',
    ccRoute(deps, 'CcImageRemoved', async (ctx, { user, content }) => {
      try {
        return await content.images.remove(user, ctx.params.b, ctx.params.id, queryText(ctx, 'expectedHead'))
      } catch (e) {
        if (!(e instanceof ImageInUseError)) throw e
        ctx.status = 409
        ctx.body = { ...errorBody(409, e.message), usedBy: e.usedBy }
        return undefined
      }
    }),
  )
}
