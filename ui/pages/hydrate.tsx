/**
 * The client entry of every page (docs/decisions/0507): each view's `+client.ts` calls
 * `hydratePage(Page)`. Vike's own client runtime is not loaded (`clientHooks: false` in +config):
 * with server routing it only read the page context and called a render hook, and it cost 13 KB
 * gzip on every page. The resolution travels in a JSON script written by +onRenderHtml.
 * Static templates do not hydrate: their entries start plain-DOM islands (ui/islands/, 0520).
 * Funnel steps hydrate only their form (ui/pages/funnel/hydrate-form.tsx, 0522).
 */
import type { ComponentType } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { startClientRuntime } from '../runtime/client-runtime'
import { RuntimeProvider } from '../runtime/runtime-context'
import { Shell } from '../shell/Shell'
import { readResolution } from './read-resolution'

/** Hydrates the server-rendered page. A failure to mount is logged and rethrown (spec point 8). */
export function hydratePage(Page: ComponentType, doc: Pick<Document, 'getElementById'> = document): void {
  try {
    const { root, resolution } = readResolution(doc)
    // Built before hydration, so the first events of the page (a funnel step's view) have a tracker.
    const runtime = startClientRuntime(resolution)
    hydrateRoot(
      root,
      <RuntimeProvider runtime={runtime}>
        <Shell resolution={resolution}>
          <Page />
        </Shell>
      </RuntimeProvider>,
      {
        onRecoverableError: (error) => console.error('Hydration problem:', error),
      },
    )
  } catch (error) {
    console.error('Failed to mount the app:', error)
    throw error
  }
}
