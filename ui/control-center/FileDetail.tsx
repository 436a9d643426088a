import { useCc } from './cc-context'
import { SourceEditor } from './SourceEditor'

/** The master–detail editor of a list screen (`&file=`): the file's JSON in the Source editor. */
export function FileDetail({ branch, path }: { branch: string; path: string }) {
  const { route } = useCc()
  const pointer = new URLSearchParams(location.search).get('pointer')
  const close = new URL(location.href)
  close.searchParams.delete('file')
  close.searchParams.delete('pointer')
  return (
    <section className="cc-card cc-detail" aria-label={`Source of ${path}`}>
      <div className="cc-row cc-row-between">
        <h2 className="cc-h3">
          <code>{path}</code>
        </h2>
        {route.screen !== 'experiment' && (
          <a className="button cc-small" href={close.pathname + close.search}>
            Close
          </a>
        )}
      </div>
      <SourceEditor key={`${branch}:${path}`} branch={branch} path={path} pointer={pointer} />
    </section>
  )
}
