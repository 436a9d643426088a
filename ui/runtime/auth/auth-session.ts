import { createStore, type Store } from '../store'

export interface AuthUser {
  id: string
  email: string
  name: string
  role: string
}

/** Spec point 3: the auth session object; logged in means a user exists. */
export interface AuthSession {
  user?: AuthUser
}

export interface AuthState {
  /** True after the first session fetch (spec point 4). */
  ready: boolean
  session: AuthSession
  loggedIn: boolean
}

export interface AuthControl extends Store<AuthState> {
  /** Logs out: DELETE on the server, and the local copy empties whatever the answer. */
  clear(): Promise<void>
}

const SIGNED_OUT: AuthState = { ready: false, session: {}, loggedIn: false }

/** GET /api/_auth/session once (Accept text/json, no retry); a failure counts as an empty session. */
export function startAuthSession(): AuthControl {
  const store = createStore<AuthState>(SIGNED_OUT)
  const set = (session: AuthSession) => store.set({ ready: true, session, loggedIn: !!session.user })
  fetch('/api/_auth/session', { headers: { Accept: 'text/json' }, credentials: 'same-origin' })
    .then(async (r): Promise<AuthSession> => {
      if (r.ok) return (await r.json()) as AuthSession
      await r.body?.cancel()
      return {}
    })
    .catch(() => ({}))
    .then((s) => set(s && typeof s === 'object' ? s : {}))
  return {
    get: store.get,
    subscribe: store.subscribe,
    async clear() {
      try {
        const r = await fetch('/api/_auth/session', { method: 'DELETE', credentials: 'same-origin' })
        await r.body?.cancel()
      } catch {}
      set({})
    },
  }
}
