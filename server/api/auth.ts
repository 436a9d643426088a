import { setTimeout } from 'node:timers/promises'
import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  API_BODY_LIMIT_BYTES,
  AUTH_SESSION_COOKIE,
  PASSWORD_HASH_REFUSAL_HOLD_MS,
  PASSWORD_HASH_REFUSALS_HELD,
  STAFF_SIGN_IN_BACKOFF_MAX_MS,
} from '../../engine/constants'
import type { AuthLogin } from '../../schemas/generated/auth-login'
import type { AuthSession } from '../../schemas/generated/auth-session'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { readJson } from '../http/read-json'
import { clientOf, hostCookieName } from '../http/request-client'
import {
  audit,
  checkCredentials,
  createSession,
  deleteSession,
  isLocked,
  lockStaffUser,
  sessionUser,
} from '../store/auth-store'
import { PasswordHashBusyError, PasswordHasher } from '../store/password'
import { requireStore } from './require-store'
import { SignInThrottle } from './sign-in-throttle'

/**
 * The auth session (spec points 3 and 7): GET answers `{}` or `{user}` (schemas/auth-session.schema.json),
 * DELETE logs out. POST signs a staff user in (the control center's login screen will use it;
 * `npm run staff -- add` creates users).
 */
export function authApi(router: Router, deps: AppDeps): void {
  const throttle = new SignInThrottle()
  // Counted for /metrics (docs/decisions/0710).
  const throttled = deps.metrics?.signInThrottled
  // One hash-time budget for every sign-in this app serves (docs/decisions/0702).
  const hasher = deps.passwordHasher ?? new PasswordHasher()
  let held = 0
  /** The budget refusal, answered late (see PASSWORD_HASH_REFUSAL_HOLD_MS). */
  const overBudget = async (message: string): Promise<HttpError> => {
    throttled?.['hash-budget'].inc()
    if (held < PASSWORD_HASH_REFUSALS_HELD) {
      held++
      try {
        await setTimeout(PASSWORD_HASH_REFUSAL_HOLD_MS)
      } finally {
        held--
      }
    }
    return tooMany(message, hasher.retryAfterMs())
  }

  router.get('/api/_auth/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    const token = ctx.cookies.get(cookieName(ctx))
    if (!token) {
      ctx.body = {} satisfies AuthSession
      return
    }
    const user = await sessionUser(requireStore(ctx, deps).db, token)
    if (!user) clearCookie(ctx)
    ctx.body = (user ? { user } : {}) satisfies AuthSession
  })

  router.post('/api/_auth/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    const store = requireStore(ctx, deps)
    const body = await readJson<AuthLogin>(ctx, {
      limit: API_BODY_LIMIT_BYTES,
      schema: 'auth-login.schema.json',
    })
    const { ip } = clientOf(ctx)
    const account = body.email.trim().toLowerCase()
    const wait = throttle.wait(account, ip)
    if (wait > 0) {
      throttled?.backoff.inc()
      throw tooMany(`too many failed sign-ins; try again in ${Math.ceil(wait / 1000)} s`, wait)
    }
    if (!throttle.begin(account)) {
      throttled?.['in-progress'].inc()
      throw tooMany('a sign-in for this account is being checked; try again', 1_000)
    }
    let user: Awaited<ReturnType<typeof checkCredentials>>
    try {
      // The hash budget is asked first: a refusal costs no database query and no hash.
      const busy = hasher.retryAfterMs()
      if (busy > 0) throw await overBudget('too many sign-ins are being checked right now; try again')
      if (await isLocked(store.db, account)) {
        throttled?.locked.inc()
        throw new HttpError(
          429,
          'this account is locked after too many failed sign-ins; ask an admin to unlock it',
          {
            headers: { 'Retry-After': String(STAFF_SIGN_IN_BACKOFF_MAX_MS / 1000) },
          },
        )
      }
      user = await checkCredentials(store.db, account, body.password, hasher)
    } catch (e) {
      if (e instanceof PasswordHashBusyError) throw await overBudget(e.message)
      throw e
    } finally {
      throttle.end(account)
    }
    if (!user) {
      const lock = throttle.failure(account, ip)
      deps.metrics?.signInFailures.inc()
      if (lock) deps.metrics?.signInLockouts.inc()
      await audit(store.db, { actor: null, action: 'login-failed', target: account, ip })
      if (lock) {
        const id = await lockStaffUser(store.db, account)
        if (id)
          await audit(store.db, {
            actor: null,
            action: 'account-locked',
            target: id,
            details: { email: account },
            ip,
          })
      }
      throw new HttpError(401, 'wrong e-mail or password')
    }
    throttle.success(account)
    // A new session on every sign-in; the one this browser held before (if any) ends.
    const previous = ctx.cookies.get(cookieName(ctx))
    if (previous) await deleteSession(store.db, previous)
    const session = await createSession(store.db, user.id, { ip, userAgent: ctx.get('user-agent') || null })
    await audit(store.db, { actor: user.id, action: 'login', ip })
    ctx.cookies.set(cookieName(ctx), session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps(ctx),
      path: '/',
      expires: session.expiresAt,
      overwrite: true,
    })
    ctx.body = { user } satisfies AuthSession
  })

  router.delete('/api/_auth/session', async (ctx) => {
    const token = ctx.cookies.get(cookieName(ctx))
    if (token) {
      const store = requireStore(ctx, deps)
      const userId = await deleteSession(store.db, token)
      if (userId) await audit(store.db, { actor: userId, action: 'logout', ip: clientOf(ctx).ip })
    }
    clearCookie(ctx)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = {} satisfies AuthSession
  })
}

/** 429 with Retry-After in whole seconds (at least 1). */
function tooMany(message: string, waitMs: number): HttpError {
  return new HttpError(429, message, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) },
    expose: true,
  })
}

const isHttps = (ctx: Context) => clientOf(ctx).protocol === 'https'

/** Over HTTPS the cookie is `__Host-` prefixed: the browser keeps it Secure, host-only, for path /. */
export function cookieName(ctx: Context): string {
  return hostCookieName(ctx, AUTH_SESSION_COOKIE)
}

function clearCookie(ctx: Context): void {
  ctx.cookies.set(cookieName(ctx), null, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(ctx),
    overwrite: true,
  })
}
