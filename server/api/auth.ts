import type Router from '@koa/router'
import type { Context } from 'koa'
import { API_BODY_LIMIT_BYTES, AUTH_SESSION_COOKIE } from '../../engine/constants'
import type { AuthLogin } from '../../schemas/generated/auth-login'
import type { AuthSession } from '../../schemas/generated/auth-session'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { readJson } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { audit, checkCredentials, createSession, deleteSession, sessionUser } from '../store/auth-store'
import { requireStore } from './require-store'

/**
 * The auth session (spec points 3 and 7): GET answers `{}` or `{user}` (schemas/auth-session.schema.json),
 * DELETE logs out. POST signs a staff user in (the control center's login screen will use it;
 * `npm run staff -- add` creates users).
 */
export function authApi(router: Router, deps: AppDeps): void {
  router.get('/api/_auth/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    const token = ctx.cookies.get(AUTH_SESSION_COOKIE)
    if (!token) {
      ctx.body = {} satisfies AuthSession
      return
    }
    const user = await sessionUser(requireStore(ctx, deps).db, token)
    if (!user) clearCookie(ctx)
    ctx.body = (user ? { user } : {}) satisfies AuthSession
  })

  router.post('/api/_auth/session', async (ctx) => {
    const store = requireStore(ctx, deps)
    const body = await readJson<AuthLogin>(ctx, {
      limit: API_BODY_LIMIT_BYTES,
      schema: 'auth-login.schema.json',
    })
    const { ip } = clientOf(ctx)
    const user = await checkCredentials(store.db, body.email, body.password)
    if (!user) {
      await audit(store.db, { actor: null, action: 'login-failed', target: body.email.toLowerCase(), ip })
      throw new HttpError(401, 'wrong e-mail or password')
    }
    const session = await createSession(store.db, user.id, { ip, userAgent: ctx.get('user-agent') || null })
    await audit(store.db, { actor: user.id, action: 'login', ip })
    ctx.cookies.set(AUTH_SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: clientOf(ctx).protocol === 'https',
      path: '/',
      expires: session.expiresAt,
      overwrite: true,
    })
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { user } satisfies AuthSession
  })

  router.delete('/api/_auth/session', async (ctx) => {
    const token = ctx.cookies.get(AUTH_SESSION_COOKIE)
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

function clearCookie(ctx: Context): void {
  ctx.cookies.set(AUTH_SESSION_COOKIE, null, { path: '/', httpOnly: true, sameSite: 'lax', overwrite: true })
}
