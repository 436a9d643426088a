import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { FileDoc } from '../../schemas/generated/cc-answers/branches'
import type { DefinitionError } from '../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from './api'
import { CommitDialog, carryKey, unsavedKey } from './CommitDialog'
import { CC_AUTOSAVE_IDLE_MS } from './cc-constants'
import { useCc } from './cc-context'
import { Presence } from './Presence'
import { useResource } from './use-resource'

type SaveState = 'saved' | 'unsaved' | 'saving' | 'failed'
type Doc = Record<string, unknown>

/** A document as the forms write it: two-space JSON with a final newline, like the files in git. */
export const jsonText = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`

/** One definition file's draft, as text: what the Source editor and every form share. */
export interface TextDraft {
  /** Loading and error of the file itself. */
  loading: boolean
  loadError: string | null
  reload(): void
  /** The file as the branch has it (head, committed text, my draft, errors); null until loaded. */
  doc: FileDoc | null
  /** The text as typed (my draft, or text kept in this browser, or the branch's); null until loaded. */
  text: string | null
  update(next: string): void
  errors: DefinitionError[]
  readOnly: boolean
  /** Presence, the save state and Commit, for the editor's top. */
  bar: React.ReactElement | null
}

export interface JsonDraft<T> {
  loading: boolean
  loadError: string | null
  reload(): void
  /** The document as typed; null until loaded. */
  value: T | null
  /** The text is not a JSON object: the form cannot show it (the Source tab can). */
  unreadable: boolean
  /** The branch's committed document, to compare with (null for a new file). */
  committed: T | null
  update(next: T): void
  errors: DefinitionError[]
  /** Whether the form's fields refuse input (never: on live a change offers a branch instead). */
  readOnly: boolean
  /** The save state bar and Commit, for the form's top. */
  bar: React.ReactElement | null
}

const parseObject = <T,>(text: string | null | undefined): T | null => {
  try {
    const parsed: unknown = JSON.parse(text ?? '')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as T) : null
  } catch {
    return null
  }
}

/** useTextDraft for a form: the text as a JSON object, written back as two-space JSON. */
export function useJsonDraft<T = Doc>(
  branch: string,
  path: string,
  /** After each draft save (with the text saved) or commit. */
  onSaved?: (text?: string) => void,
): JsonDraft<T> {
  const draft = useTextDraft(branch, path, onSaved)
  const value = useMemo(() => parseObject<T>(draft.text), [draft.text])
  const committed = useMemo(() => parseObject<T>(draft.doc?.text), [draft.doc?.text])
  return {
    loading: draft.loading,
    loadError: draft.loadError,
    reload: draft.reload,
    value,
    unreadable: draft.text !== null && value === null,
    committed,
    update: (next: T) => draft.update(jsonText(next)),
    errors: draft.errors,
    // On live the form takes input like the Source tab: the first change offers "Create a branch to
    // save" and carries the text there (useTextDraft). Read-only fields would say nothing.
    readOnly: false,
    bar: draft.bar,
  }
}

/**
 * An editor's hold on one definition file: it loads my draft (or what this browser kept unsaved),
 * autosaves every change as my draft 800 ms after typing stops, keeps unsaved text in this browser
 * until the server has it, returns the server's errors (schema and cross-checks) at their pointers,
 * and commits (with the merge dialog on a conflict). My draft records the commit its text was read on,
 * so a stale editor cannot undo others' commits. On live, a change asks for a branch and is carried
 * to it.
 */
export function useTextDraft(
  branch: string,
  path: string,
  /** After each draft save (with the text saved) or commit. */
  onSaved?: (text?: string) => void,
): TextDraft {
  const { changed, may, offerBranch } = useCc()
  const api = useApi()
  const [revision, setRevision] = useState(0)
  const doc = useResource<FileDoc>(branchApi(branch, `/file?path=${encodeURIComponent(path)}`), revision)
  const readOnly = branch === LIVE_BRANCH_NAME
  const [text, setText] = useState<string | null>(null)
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
    setErrors(doc.data.errors)
    setText(start)
    latest.current = start
    if (start !== server && !readOnly) {
      localStorage.setItem(unsavedKey(branch, path), start)
      setSave('unsaved')
      schedule()
    }
  }, [doc.data])

  const update = (next: string) => {
    setText(next)
    latest.current = next
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
    </div>
  ) : null

  return {
    loading: doc.loading && !doc.data,
    loadError: doc.error,
    reload: doc.reload,
    doc: doc.data,
    text,
    update,
    errors,
    readOnly,
    bar,
  }
}
