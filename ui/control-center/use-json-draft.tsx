import { useCallback, useEffect, useRef, useState } from 'react'
import { LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import { branchApi, useApi } from './api'
import type { DefinitionError, FileDoc } from './api-types'
import { CC_AUTOSAVE_IDLE_MS } from './cc-constants'
import { useCc } from './cc-context'
import { Presence } from './Presence'
import { CommitDialog, carryKey, unsavedKey } from './SourceEditor'
import { useResource } from './use-resource'

type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed'
type Doc = Record<string, unknown>

/** A document as the forms write it: two-space JSON with a final newline, like the files in git. */
export const jsonText = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`

export interface JsonDraft<T> {
  /** Loading and error of the file itself. */
  loading: boolean
  loadError: string | null
  reload(): void
  /** The document as typed (my draft, or text kept in this browser, or the branch's); null until loaded. */
  value: T | null
  /** The text is not a JSON object: the form cannot show it (the Source tab can). */
  unreadable: boolean
  /** The branch's committed document, to compare with (null for a new file). */
  committed: T | null
  update(next: T): void
  errors: DefinitionError[]
  readOnly: boolean
  /** The save state bar and Commit, for the form's top. */
  bar: React.ReactElement | null
}

/**
 * A form's hold on one definition file: it loads my draft (or what this browser kept unsaved),
 * autosaves every change as my draft 800 ms after typing stops, keeps unsaved text in this browser
 * until the server has it, returns the server's errors (schema and cross-checks) at their pointers,
 * and commits with the same dialog and conflict handling as the Source editor. On live, a change asks
 * for a branch and is carried to it.
 */
export function useJsonDraft<T = Doc>(
  branch: string,
  path: string,
  /** After each draft save (with the text saved) or commit. */
  onSaved?: (text?: string) => void,
): JsonDraft<T> {
  const { changed, may, offerBranch } = useCc()
  const api = useApi()
  const [revision, setRevision] = useState(0)
  const doc = useResource<FileDoc>(branchApi(branch, `/file?path=${encodeURIComponent(path)}`), revision)
  const readOnly = branch === LIVE_BRANCH_NAME
  const [value, setValue] = useState<T | null>(null)
  const [unreadable, setUnreadable] = useState(false)
  const [errors, setErrors] = useState<DefinitionError[]>([])
  const [save, setSave] = useState<SaveState>('saved')
  const [saveError, setSaveError] = useState<string | null>(null)
  const [committing, setCommitting] = useState(false)
  const latest = useRef<string | null>(null)
  /** The commit my text was written on, when known: my draft's base (a stale editor must not undo others' commits). */
  const baseHead = useRef<string | undefined>(undefined)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const offered = useRef(false)

  const saveNow = useCallback(async (): Promise<boolean> => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
    const sending = latest.current
    if (sending === null) return true
    setSave('saving')
    try {
      const r = await api<{ errors: DefinitionError[] }>(
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
      // The preview first: it reloads while the header refreshes its counts.
      onSaved?.(sending)
      changed()
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per loaded document
  useEffect(() => {
    if (!doc.data) return
    const server = doc.data.draft ? (doc.data.draft.text ?? '') : (doc.data.text ?? '')
    const kept = readOnly ? null : localStorage.getItem(unsavedKey(branch, path))
    const carried = readOnly ? null : localStorage.getItem(carryKey(path))
    if (carried !== null) localStorage.removeItem(carryKey(path))
    const start = kept ?? carried ?? server
    // Text straight from the head (no draft of mine, nothing kept): my draft's base is this head.
    baseHead.current =
      !doc.data.draft && kept === null && carried === null && !readOnly ? doc.data.head : undefined
    let parsed: unknown = null
    try {
      parsed = JSON.parse(start)
    } catch {}
    setErrors(doc.data.errors)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setUnreadable(true)
      return
    }
    setUnreadable(false)
    setValue(parsed as T)
    latest.current = start
    if (start !== server) {
      localStorage.setItem(unsavedKey(branch, path), start)
      setSave('unsaved')
      schedule()
    }
  }, [doc.data])

  const update = (next: T) => {
    setValue(next)
    const text = jsonText(next)
    latest.current = text
    if (readOnly) {
      localStorage.setItem(carryKey(path), text)
      if (!offered.current) {
        offered.current = true
        offerBranch()
      }
      return
    }
    localStorage.setItem(unsavedKey(branch, path), text)
    setSave('unsaved')
    schedule()
  }

  let committed: T | null = null
  try {
    committed = doc.data?.text ? (JSON.parse(doc.data.text) as T) : null
  } catch {}

  const head = doc.data?.head
  const bar = doc.data ? (
    <div className="stack cc-draft-bar">
      {!readOnly && <Presence branch={branch} path={path} />}
      <div className="cc-row cc-row-between">
        <p className="cc-save-state" role="status" data-testid="save-state">
          {readOnly
            ? 'Live is read-only: a change here asks for a branch to save it on.'
            : save === 'saved'
              ? doc.data.draft || (latest.current !== null && latest.current !== (doc.data.text ?? ''))
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
            setRevision((r) => r + 1)
            changed()
            onSaved?.()
          }}
          onResolved={(resolved, mergedOn) => {
            baseHead.current = mergedOn
            // The settled text is my draft now: the form shows it, and nothing older autosaves over it.
            if (timer.current) clearTimeout(timer.current)
            timer.current = null
            latest.current = resolved
            localStorage.removeItem(unsavedKey(branch, path))
            setSave('saved')
            try {
              const parsed = JSON.parse(resolved ?? '')
              if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) setValue(parsed as T)
            } catch {}
          }}
        />
      </div>
    </div>
  ) : null

  return {
    loading: doc.loading && !doc.data,
    loadError: doc.error,
    reload: doc.reload,
    value,
    unreadable,
    committed,
    update,
    errors,
    readOnly,
    bar,
  }
}
