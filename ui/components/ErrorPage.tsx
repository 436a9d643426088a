import { errorInfo } from '../../engine/render/error-info'
import { useResolution } from '../shell/resolution-context'

/**
 * The error page (spec point 2): the page-not-found variant for 404, otherwise the server-error
 * variant; status code and message visible, the description is the error's message.
 */
export function ErrorPage() {
  const r = useResolution()
  const info = r.error ?? errorInfo(r.statusCode >= 400 ? r.statusCode : undefined)
  const notFound = info.statusCode === 404
  return (
    <div
      className={`container narrow error-page ${notFound ? 'error-404' : 'error-500'}`}
      data-variant={notFound ? 'not-found' : 'server-error'}
    >
      <p className="error-code">{info.statusCode}</p>
      <h1>{info.statusMessage}</h1>
      <p className="error-description">{info.message}</p>
      <p>
        {notFound
          ? 'The page you asked for is not here. It may have moved, or the link may be mistyped.'
          : 'Something went wrong on our side. Please try again in a moment.'}
      </p>
      <p>
        <a className="button" href="/">
          Go to the home page
        </a>
      </p>
    </div>
  )
}
