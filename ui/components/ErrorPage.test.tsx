import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { errorInfo, noRouteMatch, routeValidationFailed } from '../../engine/render/error-info'
import type { Resolution } from '../../engine/render/resolution'
import { ResolutionContext } from '../shell/resolution-context'
import { ErrorPage } from './ErrorPage'

function render(
  error: Resolution['error'],
  statusCode = error?.statusCode ?? 500,
  preview?: Resolution['preview'],
): string {
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
    ...(preview ? { preview } : {}),
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

  it('shows a preview of an invalid draft as such: its errors and the way back to the editor, no server error', () => {
    const editUrl = 'http://ccc.localhost/pages/grocery?branch=b&tab=source&pointer=%2Fheadline'
    const html = render(
      { statusCode: 409, statusMessage: 'This draft does not validate', message: 'Branch "b" has 1 problem' },
      409,
      {
        branch: 'b',
        commit: 'abc',
        drafts: true,
        controlCenterUrl: 'http://ccc.localhost/branches/b',
        exitUrl: '/grocery',
        problems: [
          {
            file: 'definitions/pages/grocery.json',
            line: 4,
            pointer: '/headline',
            message: 'must be string',
            editUrl,
          },
        ],
      },
    )
    expect(html).toContain('data-variant="invalid-draft"')
    expect(html).toContain('<h1>This draft does not validate</h1>')
    expect(html).not.toContain('Internal Server Error')
    expect(html).not.toContain('error-code')
    expect(html.replace(/<!-- -->/g, '')).toContain(
      '<code>definitions/pages/grocery.json</code> line 4, <code>/headline</code>: must be string',
    )
    expect(html).toContain(`href="${editUrl.replace(/&/g, '&amp;')}"`)
    expect(html).toContain('Back to the editor')
  })
})
