/**
 * The client entry of funnel steps (docs/decisions/0522): only the form hydrates. The header, the
 * footer, the hero copy, the page's content and its disclaimers never change after the server
 * rendered them, so they stay server HTML with the plain-DOM islands of the static templates
 * (ui/islands/, 0520): the menu button, the colour-mode select, the phone number slots, and the
 * loading bar the funnel drives when a step change is slow. React hydrates the form alone
 * (`data-island="form"`, the hero's aside), under the error boundary the page shell puts around
 * the page on the server; an error in the form shows the error page in its place and is reported.
 */
import { hydrateRoot } from 'react-dom/client'
import { FunnelForm } from '../../funnel/FunnelForm'
import { mountLoadingBar } from '../../islands/loading-bar-island'
import { islandIn, mountMenuIsland, mountRuntimeIslands } from '../../islands/mount-islands'
import { startClientRuntime } from '../../runtime/client-runtime'
import { ErrorReportBoundary } from '../../runtime/error-report-boundary'
import { RuntimeProvider } from '../../runtime/runtime-context'
import { ResolutionContext } from '../../shell/resolution-context'
import { readResolution } from '../read-resolution'

/** Starts the runtime and the islands, and hydrates the form. A failure is logged and rethrown (spec point 8). */
export function hydrateFunnelForm(doc: Document = document): void {
  try {
    const { root, resolution } = readResolution(doc)
    // Built before hydration, so the first events of the page (the step's view) have a tracker.
    const runtime = startClientRuntime(resolution)
    mountMenuIsland(root, doc)
    mountRuntimeIslands(root, resolution, runtime, doc)
    const bar = islandIn<HTMLElement>(root, 'loading-bar')
    if (bar) mountLoadingBar(bar)
    const form = islandIn<HTMLElement>(root, 'form')
    const funnel = resolution.funnel
    // A funnel page without its funnel renders no form: nothing to hydrate, the page is ready.
    if (!form || !funnel) {
      runtime.hydrated()
      return
    }
    hydrateRoot(
      form,
      <RuntimeProvider runtime={runtime}>
        <ResolutionContext.Provider value={resolution}>
          <ErrorReportBoundary report={runtime.reportError}>
            <FunnelForm resolution={resolution} funnel={funnel} />
          </ErrorReportBoundary>
        </ResolutionContext.Provider>
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
