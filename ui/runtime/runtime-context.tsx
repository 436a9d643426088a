import { createContext, type ReactNode, useContext, useEffect } from 'react'
import type { ClientRuntime } from './client-runtime'

const RuntimeContext = createContext<ClientRuntime | null>(null)

/** The browser's runtime; null during server rendering and in component tests. */
export function useRuntime(): ClientRuntime | null {
  return useContext(RuntimeContext)
}

/**
 * Hands the runtime to the page. Its effect is the last to run after hydration (parents' effects run
 * after their children's), which is when the runtime does its after-hydration work once.
 */
export function RuntimeProvider({ runtime, children }: { runtime: ClientRuntime; children: ReactNode }) {
  useEffect(() => runtime.hydrated(), [runtime])
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>
}
