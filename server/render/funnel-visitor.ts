/**
 * One anonymous id for a visitor on both funnel paths (docs/decisions/0220). The browser's
 * `anonymousId` and the server's `fw_anon` cookie are the same id; because that id is not a secret
 * (events and the tag manager carry it), the answers kept under it are only for a browser holding one
 * of its keys (the httpOnly `fw_akey` cookie, listed by hash in funnel_answer_keys).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Context } from 'koa'
import { ANONYMOUS_ID_COOKIE, ANSWER_KEY_COOKIE, FUNNEL_ANSWERS_TTL_MS } from '../../engine/constants'
import { SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'
import { clientOf } from '../http/request-client'
import { addAnswerKey, answerKeyStatus, loadBuckets } from '../store/answer-store'
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
 * when the request's key is listed for it or nobody claimed it yet (then the key is listed); null
 * when another browser holds it. Sets the cookies for the id it answers.
 */
export async function claimVisitor(ctx: Context, db: Queryable, wanted: string): Promise<string | null> {
  const held = ctx.cookies.get(ANSWER_KEY_COOKIE)
  const key = held && KEY.test(held) ? held : newKey()
  const status = await answerKeyStatus(db, wanted, keyHash(key))
  if (status === 'taken') return null
  if (status === 'free') await addAnswerKey(db, wanted, keyHash(key))
  setVisitorCookies(ctx, wanted, key)
  return wanted
}

/**
 * The visitor of a posted funnel step: the id of the `fw_anon` cookie when this browser may use it,
 * else a new one (a forged or foreign id starts afresh instead of reading someone's answers).
 */
export async function postingVisitor(ctx: Context, db: Queryable): Promise<string> {
  const held = cookieAnonymousId(ctx)
  if (held) {
    const id = await claimVisitor(ctx, db, held)
    if (id) return id
  }
  const fresh = randomUUID()
  const key = newKey()
  await addAnswerKey(db, fresh, keyHash(key))
  setVisitorCookies(ctx, fresh, key)
  return fresh
}

/** Lists a fresh key for `anonymousId` in this browser (a resume link opened on another device). */
export async function adoptVisitor(ctx: Context, db: Queryable, anonymousId: string): Promise<void> {
  const key = newKey()
  await addAnswerKey(db, anonymousId, keyHash(key))
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
