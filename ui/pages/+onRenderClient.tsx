import { hydrateRoot } from 'react-dom/client'
import type { PageContextClient } from 'vike/types'
import type { Resolution } from '../../engine/render/resolution'
import { startClientRuntime } from '../runtime/client-runtime'
import { Shell } from '../shell/Shell'

/** Hydrates the server-rendered page. A failure to mount is logged and rethrown (spec point 8). */
export default function onRenderClient(pageContext: PageContextClient) {
  const Page = pageContext.Page as () => React.ReactNode
  let resolution: Resolution
  try {
    const root = document.getElementById('root')
    if (!root || !pageContext.resolution)
      throw new Error('Cannot mount: #root or the page resolution is missing')
    // The server renders without the query string (its HTML is cached per route); the browser has it.
    resolution = { ...pageContext.resolution, search: location.search }
    hydrateRoot(
      root,
      <Shell resolution={resolution}>
        <Page />
      </Shell>,
      {
        onRecoverableError: (error) => console.error('Hydration problem:', error),
      },
    )
  } catch (error) {
    console.error('Failed to mount the app:', error)
    throw error
  }
  startClientRuntime(resolution)
}
