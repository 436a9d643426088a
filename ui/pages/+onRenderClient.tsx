import { hydrateRoot } from 'react-dom/client'
import type { PageContextClient } from 'vike/types'
import { Shell } from '../shell/Shell'

/** Hydrates the server-rendered page. A failure to mount is logged and rethrown (spec point 8). */
export default function onRenderClient(pageContext: PageContextClient) {
  const resolution = pageContext.resolution
  const Page = pageContext.Page as () => React.ReactNode
  const root = document.getElementById('root')
  try {
    if (!root || !resolution) throw new Error('Cannot mount: #root or the page resolution is missing')
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
}
