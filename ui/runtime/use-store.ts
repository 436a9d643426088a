import { useSyncExternalStore } from 'react'
import type { Store } from './store'

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
