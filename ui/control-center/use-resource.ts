import { useCallback, useEffect, useRef, useState } from 'react'
import { type Api, useApi } from './api'

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

/** useResource with an explicit caller (the shell, before the API context exists). */
export function useResourceWith<T>(api: Api, url: string | null, key: unknown = 0): Resource<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; loading: boolean }>({
    data: null,
    error: null,
    loading: url !== null,
  })
  const [tick, setTick] = useState(0)
  const current = useRef(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` and `key` ask again for the same URL
  useEffect(() => {
    if (url === null) return
    const id = ++current.current
    setState((s) => ({ ...s, loading: true }))
    api<T>('GET', url).then(
      (data) => {
        if (id === current.current) setState({ data, error: null, loading: false })
      },
      (e: Error) => {
        if (id === current.current) setState({ data: null, error: e.message, loading: false })
      },
    )
  }, [api, url, tick, key])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  return { ...state, reload }
}
