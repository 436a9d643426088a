import { findNodeAtLocation, parseTree } from 'jsonc-parser'
import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import type { DefinitionError } from '../../schemas/generated/cc-answers/common'
import { colOf } from './answer-helpers'
import { ErrorList } from './ErrorList'
import { ErrorState, Loading } from './States'
import { useTextDraft } from './use-json-draft'

const CodeEditor = lazy(() => import('./CodeEditor'))

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
  const draft = useTextDraft(branch, path, onSaved)
  const { text, errors } = draft
  const [focus, setFocus] = useState<{ line: number; col: number; n: number } | undefined>()

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

  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (!draft.doc || text === null) return <Loading what={path} />
  return (
    <div className="cc-source stack">
      {draft.bar}
      <Suspense fallback={<Loading what="the editor" />}>
        <CodeEditor
          key={`${branch}:${path}`}
          value={text}
          onChange={draft.update}
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
    </div>
  )
}

/** 1-based line and column of an error: its own, else where its pointer is in the text. */
function lineOf(
  text: string,
  e: Pick<DefinitionError, 'pointer' | 'line'> & { col?: number; column?: number },
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
