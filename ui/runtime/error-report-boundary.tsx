import { Component, type ReactNode } from 'react'
import { errorInfo } from '../../engine/render/error-info'
import { ErrorPage } from '../components/ErrorPage'
import { ResolutionContext } from '../shell/resolution-context'
import type { ReportError } from './error-report'

/**
 * An unhandled error while rendering the page shows the error page's server-error variant in place
 * of the page (spec point 8) and is reported to the server; the shell around it stays usable.
 */
export class ErrorReportBoundary extends Component<
  { children: ReactNode; report?: ReportError },
  { error: Error | null }
> {
  static override contextType = ResolutionContext
  declare context: React.ContextType<typeof ResolutionContext>
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: unknown) {
    console.error('Unhandled error while rendering the page:', error)
    this.props.report?.(error, 'render')
  }

  override render() {
    const { error } = this.state
    if (!error || !this.context) return this.props.children
    const info = errorInfo(500, error.message)
    return (
      <ResolutionContext.Provider
        value={{ ...this.context, view: 'error', pageId: 'error', statusCode: 500, page: null, error: info }}
      >
        <ErrorPage />
      </ResolutionContext.Provider>
    )
  }
}
