import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  ANSWER_KEY_COOKIE,
  ANSWER_SYNC_BODY_LIMIT_BYTES,
  ANSWERS_POSTED_COOKIE,
} from '../../engine/constants'
import { BUCKET_KEY_PREFIX } from '../../engine/funnel/buckets'
import { withoutContact } from '../../engine/funnel/shown-answers'
import type { FormValues } from '../../engine/runtime-contracts'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { readJsonBody } from '../http/read-json'
import { checkSameOrigin } from '../render/funnel-post'
import {
  ANONYMOUS_ID,
  claimVisitor,
  cookieAnonymousId,
  keyHash,
  requestKeyHash,
} from '../render/funnel-visitor'
import { allBuckets, answerKeyStatus, contactHidden, loadBuckets } from '../store/answer-store'
import { requireStore } from './require-store'

const MAX_BUCKETS = 32
const MAX_FIELDS = 64
const MAX_VALUE = 1024
const FIELD = /^[A-Za-z][A-Za-z0-9]{0,63}$/

/** The browser's sync body: its anonymous id and buckets; `overwrite` when its values are newer (a submit). */
interface AnswerSync {
  anonymousId: string
  buckets: Record<string, FormValues>
  overwrite: boolean
}

function parseSync(body: unknown): AnswerSync {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'body: send a JSON object')
  const b = body as Record<string, unknown>
  if (typeof b.anonymousId !== 'string' || !ANONYMOUS_ID.test(b.anonymousId))
    throw new HttpError(400, 'anonymousId: 8 to 64 letters, digits, "-" or "_" expected')
  if (b.overwrite !== undefined && typeof b.overwrite !== 'boolean')
    throw new HttpError(400, 'overwrite: true or false expected')
  const raw = b.buckets ?? {}
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new HttpError(400, 'buckets: an object expected')
  const entries = Object.entries(raw as Record<string, unknown>)
  if (entries.length > MAX_BUCKETS) throw new HttpError(400, `buckets: at most ${MAX_BUCKETS}`)
  const buckets: Record<string, FormValues> = {}
  for (const [key, values] of entries) {
    if (!key.startsWith(BUCKET_KEY_PREFIX) || key.length > 128)
      throw new HttpError(400, `buckets/${key}: a bucket key starts with "${BUCKET_KEY_PREFIX}"`)
    if (!values || typeof values !== 'object' || Array.isArray(values))
      throw new HttpError(400, `buckets/${key}: an object of answers expected`)
    const fields = Object.entries(values as Record<string, unknown>)
    if (fields.length > MAX_FIELDS) throw new HttpError(400, `buckets/${key}: at most ${MAX_FIELDS} answers`)
    const kept: Record<string, string | boolean> = {}
    for (const [name, value] of fields) {
      if (!FIELD.test(name)) throw new HttpError(400, `buckets/${key}/${name}: not a field name`)
      if (typeof value === 'boolean' || (typeof value === 'string' && value.length <= MAX_VALUE))
        kept[name] = value
      else
        throw new HttpError(
          400,
          `buckets/${key}/${name}: a string of at most ${MAX_VALUE} characters or a boolean expected`,
        )
    }
    buckets[key] = kept as FormValues
  }
  return { anonymousId: b.anonymousId, buckets, overwrite: b.overwrite === true }
}

/**
 * POST /api/funnel/answers (docs/decisions/0220): the browser's answer buckets meet the server's, so
 * a visitor can move between the hydrated funnel and the posted one. The browser sends its anonymous
 * id and buckets; when this browser may use that id (its key is listed, or nobody claimed the id yet)
 * the buckets are merged — the server's answers win on a page load (`overwrite` false: the server
 * path may have answered since), the browser's on a submit — and every bucket of the id is answered.
 * Answers kept under the cookie's id before the browser's id was known (a first visit that posted
 * before hydrating) are merged in too. 409 when another browser holds the id.
 */
export function funnelAnswersApi(router: Router, deps: AppDeps): void {
  router.post('/api/funnel/answers', async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store')
    checkSameOrigin(ctx)
    const store = requireStore(ctx, deps)
    const sync = parseSync(await readJsonBody(ctx, ANSWER_SYNC_BODY_LIMIT_BYTES))
    const earlier = cookieAnonymousId(ctx)
    const id = await claimVisitor(ctx, store.db, sync.anonymousId, deps.newVisitors)
    if (!id)
      throw new HttpError(409, 'anonymousId: these answers belong to another browser; keep them in this one')
    const mine = await loadBuckets(store.db, id)
    if (earlier && earlier !== id && (await ownsToo(ctx, deps, earlier))) {
      for (const [key, values] of Object.entries(await allBuckets(store.db, earlier)))
        mine.write(key, { ...values, ...mine.read(key) })
    }
    for (const [key, values] of Object.entries(sync.buckets))
      mine.write(key, sync.overwrite ? { ...mine.read(key), ...values } : { ...values, ...mine.read(key) })
    await mine.save(store.db)
    ctx.cookies.set(ANSWERS_POSTED_COOKIE, null)
    const all = await allBuckets(store.db, id)
    // A browser that came through a resume link gets no contact details before it posts a step (0232).
    const key = requestKeyHash(ctx)
    const hidden = key !== null && (await contactHidden(store.db, id, key))
    ctx.body = {
      anonymousId: id,
      buckets: hidden ? Object.fromEntries(Object.entries(all).map(([k, v]) => [k, withoutContact(v)])) : all,
    }
  })
}

/** Whether this browser's key is also listed for `other` (the id a posted step gave it before). */
async function ownsToo(ctx: Context, deps: AppDeps, other: string): Promise<boolean> {
  const key = ctx.cookies.get(ANSWER_KEY_COOKIE)
  return !!key && (await answerKeyStatus(deps.store!.db, other, keyHash(key))) === 'owned'
}
