import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useMemo, useRef } from 'react'
import { fromPromise, waitFor } from 'xstate'
import { draftMachine } from '../../engine/control-center/machines/draft-machine'
import { LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { FileDoc } from '../../schemas/generated/cc-answers/branches'
import type { DefinitionError } from '../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from './api'
import { CommitDialog, unsavedKey, useCommitFlow } from './CommitDialog'
import { pendingKey, takeCarried } from './carried-text'
import { useCc } from './cc-context'
import { Presence } from './Presence'
import { useResource } from './use-resource'

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

/** The draft machine's actor for one file, its effects on this browser (localStorage, the shell, the preview). */
function useDraftActor(branch: string, path: string, onSaved?: (text?: string) => void) {
  const { changed, offerBranch } = useCc()
  const api = useApi()
  const latest = useRef({ branch, path, onSaved, changed, offerBranch, api })
  latest.current = { branch, path, onSaved, changed, offerBranch, api }
  const unsaved = () => unsavedKey(latest.current.branch, latest.current.path)
  return useActorRef(
    draftMachine.provide({
      actors: {
        saveDraft: fromPromise<{ errors: unknown[] }, { text: string; base?: string }>(({ input }) => {
          const { api, branch, path } = latest.current
          return api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(path)}`), input)
        }),
      },
      actions: {
        keep: (_, { text }) => localStorage.setItem(unsaved(), text),
        // Waits for the branch the person picks in "Create a branch to save" (carried-text.ts).
        carry: (_, { text }) => localStorage.setItem(pendingKey(latest.current.path), text),
        forget: () => localStorage.removeItem(unsaved()),
        offerBranch: () => latest.current.offerBranch(),
        // The preview first: it reloads while the header refreshes its counts.
        saved: (_, { text }) => {
          latest.current.onSaved?.(text)
          latest.current.changed()
        },
      },
    }),
  )
}

export type DraftActor = ReturnType<typeof useDraftActor>

/** Saves my draft now and says whether the server has the text as typed (for a commit). */
export async function flushDraft(actor: DraftActor): Promise<boolean> {
  // A save answered while text changed ends unsaved: save that text too (the commit dialog is modal).
  for (let i = 0; i < 3; i++) {
    if (actor.getSnapshot().matches('saved')) return true
    actor.send({ type: 'SAVE' })
    const s = await waitFor(actor, (x) => !x.matches('saving'))
    if (s.matches('saved')) return true
    if (s.matches('failed')) return false
  }
  return false
}

/** The save state, in words. */
function saveWords(state: string, saveError: string | null, draftOnServer: boolean): string {
  switch (state) {
    case 'readOnly':
      return 'Live is read-only: a change here asks for a branch to save it on.'
    case 'saving':
      return 'Saving draft…'
    case 'unsaved':
      return 'Unsaved changes (kept in this browser)'
    case 'failed':
      return `Not saved: ${saveError ?? 'error'} (kept in this browser)`
    default:
      return draftOnServer ? 'Draft saved' : 'No unsaved changes'
  }
}

/**
 * An editor's hold on one definition file, as an actor of the draft machine
 * (engine/control-center/machines/draft-machine.ts): it loads my draft (or what this browser kept
 * unsaved), autosaves every change as my draft 800 ms after typing stops, keeps unsaved text in this
 * browser until the server has it, returns the server's errors (schema and cross-checks) at their
 * pointers, and commits through the commit machine (with the merge dialog on a conflict). My draft
 * records the commit its text was read on, so a stale editor cannot undo others' commits. On live, a
 * change asks for a branch and is carried to it. This hook keeps no timer and no state of its own.
 */
export function useTextDraft(
  branch: string,
  path: string,
  /** After each draft save (with the text saved) or commit. */
  onSaved?: (text?: string) => void,
): TextDraft {
  const { changed, may } = useCc()
  const api = useApi()
  const doc = useResource<FileDoc>(branchApi(branch, `/file?path=${encodeURIComponent(path)}`))
  const readOnly = branch === LIVE_BRANCH_NAME
  const actor = useDraftActor(branch, path, onSaved)
  const state = useSelector(actor, (s) => s.value as string)
  const text = useSelector(actor, (s) => s.context.text)
  const errors = useSelector(actor, (s) => s.context.errors) as DefinitionError[]
  const saveError = useSelector(actor, (s) => s.context.saveError)

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per loaded document
  useEffect(() => {
    if (!doc.data) return
    const kept = readOnly ? null : localStorage.getItem(unsavedKey(branch, path))
    // Only text carried to this very branch (never what was typed on live for another, issue 37).
    const carried = readOnly ? null : takeCarried(branch, path)
    actor.send({
      type: 'LOADED',
      server: doc.data.draft ? (doc.data.draft.text ?? '') : (doc.data.text ?? ''),
      kept,
      carried,
      head: doc.data.head,
      hasDraft: doc.data.draft !== null,
      errors: doc.data.errors,
      readOnly,
    })
  }, [doc.data])

  const commit = async (message: string, expectedHead?: string) => {
    await api('POST', branchApi(branch, '/commits'), {
      message,
      expectedHead: expectedHead ?? doc.data?.head,
      paths: [path],
    })
    localStorage.removeItem(unsavedKey(branch, path))
    doc.reload()
    changed()
    onSaved?.()
  }
  const flow = useCommitFlow({ path, flush: () => flushDraft(actor), commit })

  const bar = doc.data ? (
    <div className="stack cc-draft-bar">
      {!readOnly && <Presence branch={branch} path={path} />}
      <div className="cc-row cc-row-between">
        <p className="cc-save-state" role="status" data-testid="save-state">
          {saveWords(
            state,
            saveError,
            Boolean(doc.data.draft) || (text !== null && text !== (doc.data.text ?? '')),
          )}
        </p>
        {!readOnly && may('branch.edit') && (
          <div className="cc-row">
            {state === 'failed' && (
              <button type="button" className="button cc-small" onClick={() => actor.send({ type: 'SAVE' })}>
                Retry save
              </button>
            )}
            <button
              type="button"
              className="button button-primary cc-small"
              onClick={() => flow.send({ type: 'OPEN' })}
            >
              Commit
            </button>
          </div>
        )}
        <CommitDialog
          flow={flow}
          path={path}
          branch={branch}
          commit={commit}
          // The settled text is my draft now: the editor shows it, and nothing older autosaves over it.
          onResolved={(resolved, mergedOn) =>
            actor.send({ type: 'RESOLVED', text: resolved ?? '', head: mergedOn })
          }
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
    update: (next: string) => actor.send({ type: 'EDIT', text: next }),
    errors,
    readOnly,
    bar,
  }
}
