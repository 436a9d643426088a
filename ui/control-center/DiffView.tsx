import type { CcDiff } from '../../schemas/generated/cc-answers/branches'
import { fileUrl } from './file-links'
import { Empty, jsonValue, WithResource } from './States'
import { useResource } from './use-resource'

/** What a diff API answers: per file, its field changes by JSON pointer. */
export type FileDiffs = Pick<CcDiff, 'files'>

/**
 * The structured diff at `url` (a branch against live, or one publication against its parent):
 * per file, each changed field by pointer, old → new. File names open the file on `branch`.
 */
export function DiffView({
  url,
  branch,
  revision = 0,
  empty,
}: {
  url: string
  branch: string
  revision?: number
  empty: string
}) {
  const diff = useResource<FileDiffs>(url, revision)
  return (
    <WithResource resource={diff} what="changes">
      {(d) =>
        d.files.length === 0 ? (
          <Empty>{empty}</Empty>
        ) : (
          <div className="stack" data-testid="diff">
            {d.files.map((f) => (
              <section key={f.path} className="cc-card">
                <h3>
                  <span className="cc-kind">{f.kind}</span> <a href={fileUrl(f.path, branch)}>{f.path}</a>{' '}
                  <span className="muted">({f.status})</span>
                </h3>
                <ul className="cc-diff">
                  {f.changes.map((c) => (
                    <li key={`${c.pointer}${c.op}`} className={`cc-diff-${c.op}`}>
                      <code>{c.pointer || '/'}</code>:{' '}
                      {c.op === 'add' ? (
                        <ins>{jsonValue(c.after)}</ins>
                      ) : c.op === 'remove' ? (
                        <del>{jsonValue(c.before)}</del>
                      ) : (
                        <>
                          <del>{jsonValue(c.before)}</del> → <ins>{jsonValue(c.after)}</ins>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )
      }
    </WithResource>
  )
}
