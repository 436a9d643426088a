import { useCallback } from 'react'
import { type Api, useApi } from './api'
import { usePoll } from './use-poll'

export interface Resource<T> {
  data: T | null
  error: string | null
  loading: boolean
  reload(): void
}

/** GETs `url` (null: nothing yet) and keeps the answer; `reload()` or a new `key` asks again. */
export function useResource<T>(url: string | null, key: unknown = 0): Resource<T> {
  return useResourceWith<T>(useApi(), url, key)
}

/**
 * useResource with an explicit caller (the shell, before the API context exists). The read is an
 * actor of the poll machine (engine/control-center/machines/run-poll-machine.ts) that ends at its
 * first answer: a newer URL or key drops an older answer, a failure waits for `reload()`.
 */
export function useResourceWith<T>(api: Api, url: string | null, key: unknown = 0): Resource<T> {
  const read = useCallback(
    async () => ({ data: url === null ? null : await api<T>('GET', url), more: false }),
    [api, url],
  )
  const poll = usePoll<T | null>(read, { more: false }, `${url}\0${JSON.stringify(key ?? null)}`)
  return {
    data: poll.failed ? null : poll.data,
    error: poll.failed ? poll.error : null,
    loading: url !== null && poll.loading,
    reload: poll.refresh,
  }
}
