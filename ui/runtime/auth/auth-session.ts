import { useSyncExternalStore } from 'react'

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

let state: AuthState = { ready: false, session: {}, loggedIn: false }
const listeners = new Set<() => void>()
let first: Promise<AuthState> | undefined

function set(session: AuthSession): AuthState {
  state = { ready: true, session, loggedIn: !!session.user }
  for (const l of listeners) l()
  return state
}

/** GET /api/_auth/session once (Accept text/json, no retry); a failure counts as an empty session. */
export function fetchAuthSession(): Promise<AuthState> {
  first ??= fetch('/api/_auth/session', { headers: { Accept: 'text/json' }, credentials: 'same-origin' })
    .then(async (r) => (r.ok ? ((await r.json()) as AuthSession) : {}))
    .catch(() => ({}))
    .then((s) => set(s && typeof s === 'object' ? s : {}))
  return first
}

/** Logs out: DELETE on the server, and the local copy empties whatever the answer. */
export async function clearAuthSession(): Promise<void> {
  try {
    await fetch('/api/_auth/session', { method: 'DELETE', credentials: 'same-origin' })
  } catch {}
  set({})
}

export function authState(): AuthState {
  return state
}

const SERVER_STATE: AuthState = { ready: false, session: {}, loggedIn: false }

/** React view of the auth session (not ready during server rendering). */
export function useAuthSession(): AuthState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => state,
    () => SERVER_STATE,
  )
}
