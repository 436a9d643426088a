import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { errorInfo, noRouteMatch, routeValidationFailed } from '../../engine/render/error-info'
import type { Resolution } from '../../engine/render/resolution'
import { ResolutionContext } from '../shell/resolution-context'
import { ErrorPage } from './ErrorPage'

function render(error: Resolution['error'], statusCode = error?.statusCode ?? 500): string {
  const resolution: Resolution = {
    view: 'error',
    pageId: 'error',
    statusCode,
    snapshotId: 'x',
    site: { name: 'Site', faviconSrc: '/favicon.svg', gtmId: 'GTM-XXXX' },
    brand: null,
    page: null,
    params: {},
    pathname: '/x',
    search: '',
    error,
    thirdParty: { tagManagerUrl: 'https://tm.example', adScriptUrl: null },
  }
  return renderToString(
    <ResolutionContext.Provider value={resolution}>
      <ErrorPage />
    </ResolutionContext.Provider>,
  )
}

describe('error page', () => {
  it('shows the not-found variant for 404 with status code and message', () => {
    const html = render(noRouteMatch('/x'))
    expect(html).toContain('data-variant="not-found"')
    expect(html).toContain('404')
    expect(html).toContain('Page Not Found')
    expect(html).toContain('Page not found: /x')
    expect(html).toContain('href="/"')
  })

  it('uses the validity-check message for a failed route check', () => {
    expect(render(routeValidationFailed('/y'))).toContain('Page Not Found: /y')
  })

  it('shows the server-error variant otherwise, defaulting to 500 Internal Server Error', () => {
    const html = render(undefined, 500)
    expect(html).toContain('data-variant="server-error"')
    expect(html).toContain('500')
    expect(html).toContain('Internal Server Error')
    expect(errorInfo()).toEqual({
      statusCode: 500,
      statusMessage: 'Internal Server Error',
      message: 'Internal Server Error',
    })
    expect(errorInfo(503, 'Upstream down')).toEqual({
      statusCode: 503,
      statusMessage: 'Internal Server Error',
      message: 'Upstream down',
    })
  })
})
