/**
 * The control center's one way to call `/api/cc/*` (docs/control-center-api.md): JSON in and out,
 * every body read, errors as ApiError with the server's message. A 401 waits for the re-login dialog
 * and retries once, so nothing in flight is lost (CONTROL-CENTER §1.1).
 */
import { createContext, useContext } from 'react'
import type { Conflict, DefinitionError, FileConflicts } from '../../schemas/generated/cc-answers/common'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: {
      error?: string
      errors?: DefinitionError[]
      conflicts?: FileConflicts[] | Conflict[]
      /** On a commit's 409: the head the conflicting side was read from. */
      head?: string
      problems?: unknown
    } | null,
  ) {
    super(message)
  }
}

export type Api = <T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) => Promise<T>

/** An API caller; `signIn` is asked for a new session when the server says 401. */
export function createApi(signIn: () => Promise<void>, doFetch: typeof fetch = (...a) => fetch(...a)): Api {
  return async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const write = method !== 'GET'
      const res = await doFetch(url, {
        method,
        credentials: 'same-origin',
        headers: write
          ? { 'Content-Type': 'application/json', Accept: 'application/json' }
          : { Accept: 'application/json' },
        body: write ? JSON.stringify(body ?? {}) : undefined,
      })
      const text = await res.text()
      let json: unknown = null
      try {
        json = text ? JSON.parse(text) : null
      } catch {
        json = null
      }
      if (res.status === 401 && attempt === 0) {
        await signIn()
        continue
      }
      if (!res.ok) {
        const b = (json ?? null) as ApiError['body']
        throw new ApiError(res.status, b?.error ?? `${res.status} ${res.statusText || 'request failed'}`, b)
      }
      return json as T
    }
  }
}

export const ApiContext = createContext<Api | null>(null)

export function useApi(): Api {
  const api = useContext(ApiContext)
  if (!api) throw new Error('useApi() used outside the control center')
  return api
}

/** `/api/cc/branches/<b>` plus a tail, with the branch name encoded. */
export const branchApi = (branch: string, tail = '') =>
  `/api/cc/branches/${encodeURIComponent(branch)}${tail}`
