import type Router from '@koa/router'
import type { Context } from 'koa'
import { API_BODY_LIMIT_BYTES, AUTH_SESSION_COOKIE } from '../../engine/constants'
import type { AuthLogin } from '../../schemas/generated/auth-login'
import type { AppDeps } from '../app'
import { audit, checkCredentials, createSession, deleteSession, sessionUser } from '../store/auth-store'
import { clientIp } from './client-ip'
import { assertSchema, readJsonBody } from './json-body'
import { requireStore } from './require-store'

/**
 * The auth session (spec points 3 and 7): GET answers `{}` or `{user}`, DELETE logs out. POST signs a
 * staff user in (the control center's login screen will use it; `npm run staff -- add` creates users).
 */
export function authApi(router: Router, deps: AppDeps): void {
  router.get('/api/_auth/session', async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    const token = ctx.cookies.get(AUTH_SESSION_COOKIE)
    if (!token) {
      ctx.body = {}
      return
    }
    const user = await sessionUser(requireStore(ctx, deps).db, token)
    if (!user) clearCookie(ctx)
    ctx.body = user ? { user } : {}
  })

  router.post('/api/_auth/session', async (ctx) => {
    const store = requireStore(ctx, deps)
    const body = assertSchema<AuthLogin>(
      ctx,
      'auth-login.schema.json',
      await readJsonBody(ctx, API_BODY_LIMIT_BYTES),
    )
    const ip = clientIp(ctx, deps.config.trustedProxies)
    const user = await checkCredentials(store.db, body.email, body.password)
    if (!user) {
      await audit(store.db, { actor: null, action: 'login-failed', target: body.email.toLowerCase(), ip })
      return ctx.throw(401, 'wrong e-mail or password')
    }
    const session = await createSession(store.db, user.id, { ip, userAgent: ctx.get('user-agent') || null })
    await audit(store.db, { actor: user.id, action: 'login', ip })
    ctx.cookies.set(AUTH_SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      expires: session.expiresAt,
      overwrite: true,
    })
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { user }
  })

  router.delete('/api/_auth/session', async (ctx) => {
    const token = ctx.cookies.get(AUTH_SESSION_COOKIE)
    if (token) {
      const store = requireStore(ctx, deps)
      const userId = await deleteSession(store.db, token)
      if (userId)
        await audit(store.db, {
          actor: userId,
          action: 'logout',
          ip: clientIp(ctx, deps.config.trustedProxies),
        })
    }
    clearCookie(ctx)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = {}
  })
}

function clearCookie(ctx: Context): void {
  ctx.cookies.set(AUTH_SESSION_COOKIE, null, { path: '/', httpOnly: true, sameSite: 'lax', overwrite: true })
}
