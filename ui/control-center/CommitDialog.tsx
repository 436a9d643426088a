import { useState } from 'react'
import type { FileConflicts } from '../../schemas/generated/cc-answers/common'
import { ApiError, branchApi, useApi } from './api'
import { asFileConflicts } from './Conflicts'
import { useCc } from './cc-context'
import { Dialog } from './Dialog'
import { MergeDialog } from './MergeDialog'
import { FormError, jsonValue } from './States'

/** Unsaved text waits here until the server has it (a 401, a lost connection, a reload). */
export const unsavedKey = (branch: string, path: string) => `fw-cc-unsaved:${branch}:${path}`
/** Text typed on live, carried to the branch created to save it. */
export const carryKey = (path: string) => `fw-cc-unsaved:carry:${path}`

/**
 * Commit my draft of one file: a message, then the commit; a 409 the merge dialog can settle opens
 * it (base, theirs and mine per field), and the settled text commits on the newer head.
 */
export function CommitDialog({
  open,
  onClose,
  path,
  flush,
  commit,
  branch: branchProp,
  onResolved,
}: {
  open: boolean
  onClose: () => void
  path: string
  flush: () => Promise<boolean>
  /** Commits my draft; `expectedHead` is given when the merge dialog settled a conflict on a newer head. */
  commit: (message: string, expectedHead?: string) => Promise<void>
  /** The branch the draft is on (default: the screen's). */
  branch?: string
  /** The merge dialog wrote this settled text as my draft of `path` (null: deleted) on `head`: the editor shows it. */
  onResolved?: (text: string | null, head: string) => void
}) {
  const api = useApi()
  const cc = useCc()
  const branch = branchProp ?? cc.branch
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [conflicts, setConflicts] = useState<ReturnType<typeof asFileConflicts>>([])
  const [merge, setMerge] = useState<{ files: FileConflicts[]; head: string; message: string } | null>(null)
  const [busy, setBusy] = useState(false)
  /** A 409 the merge dialog can settle: every file's texts and the head they were read on. */
  const mergeable = (err: unknown, msg: string) => {
    if (!(err instanceof ApiError) || err.status !== 409 || !err.body?.head || !branch) return null
    const files = asFileConflicts(err.body.conflicts, path)
    if (!files.length || files.some((f) => !f.texts)) return null
    return { files, head: err.body.head, message: msg }
  }
  const close = () => {
    setMerge(null)
    onClose()
  }
  return (
    <>
      {/* Closing it for the merge dialog fires its close event: that one must not close both. */}
      <Dialog open={open && !merge} title="Commit to the branch" onClose={merge ? () => {} : close} wide>
        <form
          className="stack"
          onSubmit={async (e) => {
            e.preventDefault()
            setBusy(true)
            setError(null)
            setConflicts([])
            try {
              if (!(await flush())) throw new Error('Your draft could not be saved; try again.')
              await commit(message.trim())
              setMessage('')
              onClose()
            } catch (err) {
              const m = mergeable(err, message.trim())
              if (m) setMerge(m)
              else {
                setError((err as Error).message)
                if (err instanceof ApiError) setConflicts(asFileConflicts(err.body?.conflicts, path))
              }
            } finally {
              setBusy(false)
            }
          }}
        >
          <p>
            Commits your draft of <code>{path}</code> to the branch. Invalid content may be committed; it
            cannot be published.
          </p>
          <label className="cc-field">
            <span>Message</span>
            <input
              required
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              placeholder="New headline"
            />
          </label>
          <FormError message={error} />
          {conflicts.length > 0 && (
            <div className="stack" data-testid="commit-conflicts">
              <p>
                Someone changed the same fields on this branch meanwhile. Edit your text to settle each one:
              </p>
              {conflicts.map((f) =>
                f.conflicts.map((c) => (
                  <div key={`${f.path}${c.pointer}`} className="cc-conflict">
                    <code>
                      {f.path} {c.pointer}
                    </code>
                    <div>Base: {jsonValue(c.base)}</div>
                    <div>Theirs (the branch now): {jsonValue(c.theirs)}</div>
                    <div>Mine: {jsonValue(c.mine)}</div>
                  </div>
                )),
              )}
            </div>
          )}
          <div className="cc-row">
            <button type="submit" className="button button-primary" disabled={busy || !message.trim()}>
              {busy ? 'Committing…' : 'Commit'}
            </button>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>
      {merge && branch && (
        <MergeDialog
          key={merge.head}
          open={open}
          files={merge.files}
          head={merge.head}
          message={merge.message}
          onClose={close}
          onCommit={async (resolved, head, msg) => {
            // The settled text becomes my draft on the head it was merged with, then commits on it.
            for (const r of resolved) {
              await api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(r.path)}`), {
                text: r.text,
                base: head,
              })
              if (r.path === path) onResolved?.(r.text, head)
            }
            try {
              await commit(msg, head)
            } catch (err) {
              // Someone committed again meanwhile: the dialog asks again on the newer head.
              const again = mergeable(err, msg)
              if (again) {
                setMerge(again)
                return
              }
              throw err
            }
            setMessage('')
            close()
          }}
        />
      )}
    </>
  )
}
