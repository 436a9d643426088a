/**
 * One anonymous id for a visitor on both funnel paths (docs/decisions/0220). The browser's
 * `anonymousId` and the server's `fw_anon` cookie are the same id; because that id is not a secret
 * (events and the tag manager carry it), the answers kept under it are only for a browser holding one
 * of its keys (the httpOnly `fw_akey` cookie, listed by hash in funnel_answer_keys).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Context } from 'koa'
import {
  ANONYMOUS_ID_COOKIE,
  ANSWER_KEY_COOKIE,
  FUNNEL_ANSWERS_TTL_MS,
  NEW_VISITORS_WINDOW_MS,
} from '../../engine/constants'
import { SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'
import { HttpError } from '../http/http-error'
import type { RateLimiter } from '../http/rate-limiter'
import { clientOf } from '../http/request-client'
import {
  addAnswerKey,
  answerKeyStatus,
  contactHidden,
  loadBuckets,
  renewAnswerKey,
} from '../store/answer-store'
import type { Queryable } from '../store/db'

/** An anonymous id a browser or we made: a UUID, or the browser's fallback (base-36 time and random). */
export const ANONYMOUS_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$/
const KEY = /^[A-Za-z0-9_-]{43}$/

export const keyHash = (key: string) => createHash('sha256').update(`fw-answers.${key}`).digest('hex')
const newKey = () => randomBytes(32).toString('base64url')

/** The anonymous id the request's cookies name, whether or not they prove it. */
export function cookieAnonymousId(ctx: Context): string | null {
  const held = ctx.cookies.get(ANONYMOUS_ID_COOKIE)
  return held && ANONYMOUS_ID.test(held) ? held : null
}

/**
 * Counts a visitor this request is about to create (a new answer key) against its client address
 * (docs/decisions/0810): beyond NEW_VISITOR_LIMIT (default NEW_VISITORS_PER_WINDOW) per window, 429 with Retry-After.
 */
function countNewVisitor(ctx: Context, limiter: RateLimiter | undefined): void {
  const wait = limiter?.hit(clientOf(ctx).ip) ?? 0
  if (wait)
    throw new HttpError(
      429,
      `Too many new visitors from this address (at most ${limiter?.limit} every ${NEW_VISITORS_WINDOW_MS / 60_000} minutes); try again in ${wait} s`,
      { headers: { 'Retry-After': String(wait) } },
    )
}

/** Sets the id cookie (readable by the page) and the key cookie (httpOnly), renewed for the bucket lifetime. */
export function setVisitorCookies(ctx: Context, anonymousId: string, key: string): void {
  const common = {
    maxAge: FUNNEL_ANSWERS_TTL_MS,
    sameSite: 'lax' as const,
    secure: clientOf(ctx).protocol === 'https',
    overwrite: true,
  }
  ctx.cookies.set(ANONYMOUS_ID_COOKIE, anonymousId, { ...common, httpOnly: false })
  ctx.cookies.set(ANSWER_KEY_COOKIE, key, { ...common, httpOnly: true })
}

/**
 * The anonymous id whose answers this request may use: `wanted` (the browser's id; else the cookie's)
 * when the request's key is listed for it (then its lifetime starts again: an active visitor's key does
 * not expire under them) or nobody claimed it yet (then the key is listed); null when another browser
 * holds it. Sets the cookies for the id it answers.
 */
export async function claimVisitor(
  ctx: Context,
  db: Queryable,
  wanted: string,
  newVisitors?: RateLimiter,
): Promise<string | null> {
  const held = ctx.cookies.get(ANSWER_KEY_COOKIE)
  const key = held && KEY.test(held) ? held : newKey()
  const status = await answerKeyStatus(db, wanted, keyHash(key))
  if (status === 'taken') return null
  if (status === 'free') {
    countNewVisitor(ctx, newVisitors)
    await addAnswerKey(db, wanted, keyHash(key))
  } else await renewAnswerKey(db, wanted, keyHash(key))
  setVisitorCookies(ctx, wanted, key)
  return wanted
}

/**
 * The visitor of a posted funnel step: the id of the `fw_anon` cookie when this browser may use it,
 * else a new one (a forged or foreign id starts afresh instead of reading someone's answers).
 */
export async function postingVisitor(
  ctx: Context,
  db: Queryable,
  newVisitors?: RateLimiter,
): Promise<string> {
  const held = cookieAnonymousId(ctx)
  if (held) {
    const id = await claimVisitor(ctx, db, held, newVisitors)
    if (id) return id
  }
  countNewVisitor(ctx, newVisitors)
  const fresh = randomUUID()
  const key = newKey()
  await addAnswerKey(db, fresh, keyHash(key))
  setVisitorCookies(ctx, fresh, key)
  return fresh
}

/** The hash of the answer key this request's cookie holds (not yet checked against anything), or null. */
export function requestKeyHash(ctx: Context): string | null {
  const held = ctx.cookies.get(ANSWER_KEY_COOKIE)
  return held && KEY.test(held) ? keyHash(held) : null
}

/** A visitor whose answers this request may read, as its cookies prove it; nothing is claimed or set. */
export interface HeldVisitor {
  anonymousId: string
  /** A browser that came through a resume link and has not posted a step yet (docs/decisions/0232). */
  contactHidden: boolean
}

/** The visitor of a request that holds a key listed for its id cookie (a GET: nothing is claimed); else null. */
export async function heldVisitor(ctx: Context, db: Queryable): Promise<HeldVisitor | null> {
  const anonymousId = cookieAnonymousId(ctx)
  const key = requestKeyHash(ctx)
  if (!anonymousId || !key || (await answerKeyStatus(db, anonymousId, key)) !== 'owned') return null
  return { anonymousId, contactHidden: await contactHidden(db, anonymousId, key) }
}

/**
 * Lists a fresh key for `anonymousId` in this browser (a resume link opened on another device): it is
 * given no contact details until it posts a step (0232). The browser that already holds the id keeps
 * its key as it is.
 */
export async function adoptVisitor(ctx: Context, db: Queryable, anonymousId: string): Promise<void> {
  const held = requestKeyHash(ctx)
  if (
    cookieAnonymousId(ctx) === anonymousId &&
    held &&
    (await answerKeyStatus(db, anonymousId, held)) === 'owned'
  )
    return
  const key = newKey()
  await addAnswerKey(db, anonymousId, keyHash(key), true)
  setVisitorCookies(ctx, anonymousId, key)
}

/**
 * The answers this browser may read (its key is listed for the cookie's id): the shared bucket, every
 * answer it gave on any funnel. The phone lease's marketplace body takes them (docs/decisions/0524:
 * the browser keeps no copy). Empty for a browser that proves no id.
 */
export async function heldAnswers(ctx: Context, db: Queryable): Promise<FormValues> {
  const id = cookieAnonymousId(ctx)
  const key = ctx.cookies.get(ANSWER_KEY_COOKIE)
  if (!id || !key || !KEY.test(key)) return {}
  if ((await answerKeyStatus(db, id, keyHash(key))) !== 'owned') return {}
  return (await loadBuckets(db, id)).read(SHARED_BUCKET_KEY)
}
