/**
 * The client entry of every page (docs/decisions/0507): each view's `+client.ts` calls
 * `hydratePage(Page)`. Vike's own client runtime is not loaded (`clientHooks: false` in +config):
 * with server routing it only read the page context and called a render hook, and it cost 13 KB
 * gzip on every page. The resolution travels in a JSON script written by +onRenderHtml.
 */
import type { ComponentType } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { Resolution } from '../../engine/render/resolution'
import { RESOLUTION_SCRIPT_ID } from '../../engine/render/resolution-script'
import { startClientRuntime } from '../runtime/client-runtime'
import { RuntimeProvider } from '../runtime/runtime-context'
import { Shell } from '../shell/Shell'

/** Hydrates the server-rendered page. A failure to mount is logged and rethrown (spec point 8). */
export function hydratePage(Page: ComponentType, doc: Pick<Document, 'getElementById'> = document): void {
  try {
    const root = doc.getElementById('root')
    const data = doc.getElementById(RESOLUTION_SCRIPT_ID)?.textContent
    if (!root || !data) throw new Error('Cannot mount: #root or the page resolution is missing')
    // The server renders without the query string (its HTML is cached per route); the browser has it.
    const resolution: Resolution = { ...(JSON.parse(data) as Resolution), search: location.search }
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
