import { useSyncExternalStore } from 'react'

/** A value that changes over time and tells its subscribers (the runtime's phone line, auth, …). */
export interface Store<T> {
  get(): T
  subscribe(listener: () => void): () => void
}

export interface WritableStore<T> extends Store<T> {
  set(next: T): void
}

export function createStore<T>(initial: T): WritableStore<T> {
  let value = initial
  const listeners = new Set<() => void>()
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return
      value = next
      for (const l of listeners) l()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

const noSubscription = () => () => {}

/**
 * React view of a runtime store. Without a store (server rendering, component tests) and while
 * hydrating, it shows `serverValue`, so server HTML never depends on the visitor.
 */
export function useStore<T>(store: Store<T> | undefined, serverValue: T): T {
  return useSyncExternalStore(
    store?.subscribe ?? noSubscription,
    store?.get ?? (() => serverValue),
    () => serverValue,
  )
}
