import { errorInfo } from '../../engine/render/error-info'
import type { PreviewInfo, PreviewProblem } from '../../engine/render/resolution'
import { useResolution } from '../shell/resolution-context'

/**
 * The error page (spec point 2): the page-not-found variant for 404, otherwise the server-error
 * variant; status code and message visible, the description is the error's message. A staff preview
 * of a branch that does not validate lists its errors instead (409, not a server error).
 */
export function ErrorPage() {
  const r = useResolution()
  const info = r.error ?? errorInfo(r.statusCode >= 400 ? r.statusCode : undefined)
  const notFound = info.statusCode === 404
  const problems = r.preview?.problems
  if (r.preview && problems?.length)
    return (
      <InvalidPreview
        preview={r.preview}
        problems={problems}
        title={info.statusMessage}
        message={info.message}
      />
    )
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

/** A preview of a branch (or draft) that does not validate: each error, where to fix it. */
function InvalidPreview({
  preview,
  problems,
  title,
  message,
}: {
  preview: PreviewInfo
  problems: PreviewProblem[]
  title: string
  message: string
}) {
  const back = problems.find((p) => p.editUrl)?.editUrl ?? preview.controlCenterUrl
  return (
    <div className="container narrow error-page error-invalid-draft" data-variant="invalid-draft">
      <h1>{title}</h1>
      <p>{message}</p>
      <ul className="error-problems" data-testid="preview-problems">
        {problems.map((p) => (
          <li key={`${p.file}${p.pointer}${p.message}`}>
            <code>{p.file}</code> line {p.line}, <code>{p.pointer || '/'}</code>: {p.message}
            {p.editUrl && (
              <>
                {' '}
                <a href={p.editUrl} target="_top">
                  Fix it
                </a>
              </>
            )}
          </li>
        ))}
      </ul>
      {back && (
        <p>
          <a className="button" href={back} target="_top">
            Back to the editor
          </a>
        </p>
      )}
    </div>
  )
}
