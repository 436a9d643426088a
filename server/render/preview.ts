/**
 * Previews of a branch on the brand's own host (CONTROL-CENTER §2.3, docs/decisions/0601):
 * `?branch=NAME&fw_preview=<grant>` renders the page from that branch (plus the granting staff
 * member's unsaved drafts when the grant says so). Without a valid grant for that branch the
 * query is ignored and the live page is served: nothing about branches leaks.
 */
import type { Context } from 'koa'
import {
  CONTROL_CENTER_BRAND_ID,
  PREVIEW_BRANCH_PARAM,
  PREVIEW_GRANT_PARAM,
  PREVIEW_PROBLEMS_MAX,
} from '../../engine/constants'
import { ccPath } from '../../engine/render/control-center-routes'
import type { PreviewInfo, PreviewProblem } from '../../engine/render/resolution'
import type { DefinitionError, Snapshot } from '../../engine/snapshot/types'
import type { AppDeps } from '../app-deps'
import { clientOf } from '../http/request-client'
import { log } from '../log'

export interface PreviewRequest {
  info: PreviewInfo
  /** The branch's snapshot, or its errors when it does not build. */
  snapshot: Snapshot | null
  errors: number
  /** The query string without the preview parameters (what the page itself sees). */
  search: string
  /** The grant, for what the preview page itself asks for (its unpublished images). */
  token: string
}

/** The preview this request asks for and is granted, or null for a normal (live) request. */
export async function previewRequest(ctx: Context, deps: AppDeps): Promise<PreviewRequest | null> {
  const branch = ctx.query[PREVIEW_BRANCH_PARAM]
  const token = ctx.query[PREVIEW_GRANT_PARAM]
  if (typeof branch !== 'string' || typeof token !== 'string' || !deps.content) return null
  const grant = await deps.content.previews.check(token)
  if (!grant || grant.branch !== branch) return null
  let built: Awaited<ReturnType<typeof deps.content.branches.snapshot>>
  try {
    built = await deps.content.branches.snapshot(branch, grant.drafts ? grant.userId : undefined)
  } catch (e) {
    // An archived or unknown branch: the live page, as for any other query string.
    log('info', 'preview of a branch that is gone', { branch, error: (e as Error).message })
    return null
  }
  const params = new URLSearchParams(ctx.search)
  params.delete(PREVIEW_BRANCH_PARAM)
  params.delete(PREVIEW_GRANT_PARAM)
  const rest = params.toString()
  const ccc = deps.snapshots.current.brands.get(CONTROL_CENTER_BRAND_ID)
  const origin = ccc ? controlCenterOrigin(ctx, ccc.url) : null
  return {
    info: {
      branch,
      commit: built.commit,
      drafts: !!built.draftsHash,
      controlCenterUrl: origin ? `${origin}/branches/${branch}` : null,
      exitUrl: `${ctx.path}${rest ? `?${rest}` : ''}`,
      ...(built.result.ok ? {} : { problems: previewProblems(built.result.errors, branch, origin) }),
    },
    snapshot: built.result.ok ? built.result.snapshot : null,
    errors: built.result.ok ? 0 : built.result.errors.length,
    search: rest ? `?${rest}` : '',
    token,
  }
}

/** The errors a preview of an invalid branch lists, each linked to where it is fixed. */
function previewProblems(errors: DefinitionError[], branch: string, origin: string | null): PreviewProblem[] {
  return errors.slice(0, PREVIEW_PROBLEMS_MAX).map((e) => {
    const page = /^definitions\/pages\/(.+)\.json$/.exec(e.file)
    const path = page
      ? ccPath('page', { page: page[1] }, branch, { tab: 'source', pointer: e.pointer })
      : `/branches/${encodeURIComponent(branch)}?tab=checks`
    return {
      file: e.file,
      line: e.line,
      pointer: e.pointer,
      message: e.message,
      editUrl: origin ? `${origin}${path}` : null,
    }
  })
}

/** The control center next to this brand host: `ccc.localhost:<port>` locally, else its own URL. */
function controlCenterOrigin(ctx: Context, url: string): string {
  const { host, protocol } = clientOf(ctx)
  const local = /^[^.:]+\.localhost(:\d+)?$/.exec(host)
  return local ? `${protocol}://${CONTROL_CENTER_BRAND_ID}.localhost${local[1] ?? ''}` : new URL(url).origin
}

/** An uploaded image's URL in a page (its src, a srcset entry, a JSON string of the page's data). */
const UPLOADED_IMAGE_URL = /(\/images\/uploads\/[a-z0-9][a-z0-9-]*\.[0-9a-f]{8}\.webp)(?![?\w.-])/g

/**
 * The preview's HTML with the grant on every uploaded image's URL: an image not yet published
 * answers only with it (server/middleware/uploaded-images.ts, docs/decisions/0921).
 */
export const withGrantOnUploads = (html: string, token: string) =>
  html.replace(UPLOADED_IMAGE_URL, `$1?${PREVIEW_GRANT_PARAM}=${encodeURIComponent(token)}`)

/** A preview is one person's view of unpublished content: never cached, never indexed, no referrer. */
export function setPreviewHeaders(ctx: Context): void {
  ctx.set('Cache-Control', 'private, no-store')
  ctx.set('X-Robots-Tag', 'noindex')
  ctx.set('Referrer-Policy', 'no-referrer')
}
