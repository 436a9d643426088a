import { findNodeAtLocation, parseTree } from 'jsonc-parser'
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import { ApiError, branchApi, useApi } from './api'
import { colOf, type DefinitionError, type FileConflicts, type FileDoc } from './api-types'
import { asFileConflicts } from './Conflicts'
import { CC_AUTOSAVE_IDLE_MS } from './cc-constants'
import { useCc } from './cc-context'
import { Dialog } from './Dialog'
import { ErrorList } from './ErrorList'
import { MergeDialog } from './MergeDialog'
import { Presence } from './Presence'
import { ErrorState, jsonValue, Loading } from './States'
import { useResource } from './use-resource'

const CodeEditor = lazy(() => import('./CodeEditor'))

/** Unsaved text waits here until the server has it (a 401, a lost connection, a reload). */
export const unsavedKey = (branch: string, path: string) => `fw-cc-unsaved:${branch}:${path}`
/** Text typed on live, carried to the branch created to save it. */
export const carryKey = (path: string) => `fw-cc-unsaved:carry:${path}`

type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed'

/**
 * The Source tab: a definition's JSON in CodeMirror, autosaved as my draft after 800 ms idle, the
 * server's errors inline at their line and listed by pointer, and Commit.
 */
export function SourceEditor({
  branch,
  path,
  onSaved,
  pointer,
}: {
  branch: string
  path: string
  /** After each successful draft save or commit (the preview reloads). */
  onSaved?: () => void
  /** A pointer to show first (a link from the Problems panel). */
  pointer?: string | null
}) {
  const { offerBranch, changed, may } = useCc()
  const api = useApi()
  const [revision, setRevision] = useState(0)
  const doc = useResource<FileDoc>(branchApi(branch, `/file?path=${encodeURIComponent(path)}`), revision)
  const readOnly = branch === LIVE_BRANCH_NAME
  const [text, setText] = useState<string | null>(null)
  const [save, setSave] = useState<SaveState>('saved')
  const [saveError, setSaveError] = useState<string | null>(null)
  const [errors, setErrors] = useState<DefinitionError[]>([])
  const [focus, setFocus] = useState<{ line: number; col: number; n: number } | undefined>()
  const [committing, setCommitting] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const offered = useRef(false)
  const latest = useRef<string | null>(null)
  /** The commit my text was written on, when known: my draft's base (a stale editor must not undo others' commits). */
  const baseHead = useRef<string | undefined>(undefined)

  // First load: my unsaved text (or text carried from live) wins over the server's draft.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per loaded document
  useEffect(() => {
    if (!doc.data || text !== null) return
    const server = doc.data.draft ? (doc.data.draft.text ?? '') : (doc.data.text ?? '')
    const kept = localStorage.getItem(unsavedKey(branch, path))
    const carried = readOnly ? null : localStorage.getItem(carryKey(path))
    if (carried !== null) localStorage.removeItem(carryKey(path))
    const start = kept ?? carried ?? server
    // Text straight from the head (no draft of mine, nothing kept): my draft's base is this head.
    baseHead.current =
      !doc.data.draft && kept === null && carried === null && !readOnly ? doc.data.head : undefined
    setText(start)
    latest.current = start
    setErrors(doc.data.errors)
    if (start !== server && !readOnly) {
      localStorage.setItem(unsavedKey(branch, path), start)
      setSave('unsaved')
      schedule()
    }
  }, [doc.data])

  const saveNow = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    const sending = latest.current
    if (sending === null) return true
    setSave('saving')
    try {
      const r = await api<{ errors: DefinitionError[]; problems: number }>(
        'PUT',
        branchApi(branch, `/drafts?path=${encodeURIComponent(path)}`),
        { text: sending, ...(baseHead.current ? { base: baseHead.current } : {}) },
      )
      setErrors(r.errors)
      setSaveError(null)
      if (latest.current === sending) {
        localStorage.removeItem(unsavedKey(branch, path))
        setSave('saved')
      } else setSave('unsaved')
      changed()
      onSaved?.()
      return true
    } catch (e) {
      setSave('failed')
      setSaveError((e as Error).message)
      return false
    }
  }, [api, branch, path, changed, onSaved])

  const schedule = useCallback(() => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => void saveNow(), CC_AUTOSAVE_IDLE_MS)
  }, [saveNow])

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )

  const onChange = (next: string) => {
    latest.current = next
    setText(next)
    if (readOnly) {
      // Live is read-only: keep the text and offer a branch to save it on.
      localStorage.setItem(carryKey(path), next)
      if (!offered.current) {
        offered.current = true
        offerBranch()
      }
      return
    }
    localStorage.setItem(unsavedKey(branch, path), next)
    setSave('unsaved')
    schedule()
  }

  // Errors at their line; an error without one is placed at its pointer when the text has it.
  const diagnostics = useMemo(() => {
    const t = text ?? ''
    return errors
      .filter((e) => e.file === path || !e.file)
      .map((e) => ({ ...lineOf(t, e), message: `${e.pointer || '/'} ${e.message}` }))
  }, [errors, text, path])

  // A pointer from the URL (Problems panel link): put the cursor there once, when the text is in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the text arrives
  useEffect(() => {
    if (!pointer || text === null) return
    const hit = errors.find((e) => e.pointer === pointer)
    setFocus({ ...(hit ? lineOf(text, hit) : lineOf(text, { pointer, line: 0, col: 0 })), n: 1 })
  }, [pointer, text === null])

  if (doc.error) return <ErrorState message={doc.error} retry={doc.reload} />
  if (!doc.data || text === null) return <Loading what={path} />
  const head = doc.data.head
  return (
    <div className="cc-source stack">
      {!readOnly && <Presence branch={branch} path={path} />}
      <div className="cc-row cc-row-between">
        <p className="cc-save-state" role="status" data-testid="save-state">
          {readOnly
            ? 'Live is read-only: a change here asks for a branch to save it on.'
            : save === 'saved'
              ? doc.data.draft || text !== (doc.data.text ?? '')
                ? 'Draft saved'
                : 'No unsaved changes'
              : save === 'saving'
                ? 'Saving draft…'
                : save === 'unsaved'
                  ? 'Unsaved changes (kept in this browser)'
                  : `Not saved: ${saveError ?? 'error'} (kept in this browser)`}
        </p>
        {!readOnly && may('branch.edit') && (
          <div className="cc-row">
            {save === 'failed' && (
              <button type="button" className="button cc-small" onClick={() => void saveNow()}>
                Retry save
              </button>
            )}
            <button
              type="button"
              className="button button-primary cc-small"
              onClick={() => setCommitting(true)}
            >
              Commit
            </button>
          </div>
        )}
      </div>
      <Suspense fallback={<Loading what="the editor" />}>
        <CodeEditor
          key={`${branch}:${path}`}
          value={text}
          onChange={onChange}
          diagnostics={diagnostics}
          focusLine={focus}
          label={`JSON source of ${path}`}
        />
      </Suspense>
      {errors.length > 0 ? (
        <section aria-label="Errors in this file">
          <h3 className="cc-h3">
            {errors.length} error{errors.length === 1 ? '' : 's'} in this file
          </h3>
          <ErrorList
            errors={errors}
            branch={branch}
            onPick={(e) => setFocus((f) => ({ ...lineOf(text, e), n: (f?.n ?? 0) + 1 }))}
          />
        </section>
      ) : (
        <p className="muted">No errors in this file.</p>
      )}
      <CommitDialog
        open={committing}
        onClose={() => setCommitting(false)}
        path={path}
        flush={async () => (save === 'saved' ? true : saveNow())}
        branch={branch}
        commit={async (message, expectedHead) => {
          await api('POST', branchApi(branch, '/commits'), {
            message,
            expectedHead: expectedHead ?? head,
            paths: [path],
          })
          localStorage.removeItem(unsavedKey(branch, path))
          setText(null)
          setRevision((r) => r + 1)
          changed()
          onSaved?.()
        }}
        onResolved={(resolved, mergedOn) => {
          baseHead.current = mergedOn
          // The settled text is my draft now: the editor shows it, and nothing older autosaves over it.
          if (timer.current) clearTimeout(timer.current)
          timer.current = null
          latest.current = resolved ?? ''
          setText(resolved ?? '')
          localStorage.removeItem(unsavedKey(branch, path))
          setSave('saved')
        }}
      />
    </div>
  )
}

/** 1-based line and column of an error: its own, else where its pointer is in the text. */
function lineOf(
  text: string,
  e: Pick<DefinitionError, 'pointer' | 'line' | 'col' | 'column'>,
): { line: number; col: number } {
  if (Number.isFinite(e.line) && e.line > 0) return { line: e.line, col: Math.max(colOf(e), 1) }
  const tree = parseTree(text)
  const segments = (e.pointer || '')
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
  for (let n = segments.length; tree && n >= 0; n--) {
    const node = findNodeAtLocation(tree, segments.slice(0, n))
    if (node) {
      const offset = node.parent?.type === 'property' ? node.parent.offset : node.offset
      const before = text.slice(0, offset)
      const line = before.split('\n').length
      return { line, col: offset - before.lastIndexOf('\n') }
    }
  }
  return { line: 1, col: 1 }
}

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
          {error && (
            <p className="cc-form-error" role="alert">
              {error}
            </p>
          )}
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
