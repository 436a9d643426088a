/**
 * CodeMirror 6 with JSON, loaded only by the editor screens (React.lazy): the Source tab of any
 * definition, with the server's validation errors as inline diagnostics (CONTROL-CENTER §6).
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { json } from '@codemirror/lang-json'
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint'
import { EditorState } from '@codemirror/state'
import { EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view'
import { useEffect, useRef } from 'react'

export interface EditorDiagnostic {
  line: number
  col: number
  message: string
}

export interface CodeEditorProps {
  value: string
  onChange: (text: string) => void
  diagnostics: EditorDiagnostic[]
  /** 1-based line to put the cursor on and scroll to (an error picked from the list). */
  focusLine?: { line: number; col: number; n: number }
  label: string
  readOnly?: boolean
}

export default function CodeEditor({
  value,
  onChange,
  diagnostics,
  focusLine,
  label,
  readOnly,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const view = useRef<EditorView | null>(null)
  const change = useRef(onChange)
  change.current = onChange
  /** A text set from outside (a reload after a commit, a merge settled) is not typing. */
  const external = useRef(false)
  // The editor is created once per file (the parent keys it); later text comes from typing, or from
  // outside when the draft reloads (the effect below).
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once, on purpose
  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          history(),
          bracketMatching(),
          json(),
          syntaxHighlighting(defaultHighlightStyle),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          EditorState.readOnly.of(readOnly === true),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !external.current) change.current(u.state.doc.toString())
          }),
        ],
      }),
    })
    view.current = v
    return () => {
      v.destroy()
      view.current = null
    }
  }, [])
  useEffect(() => {
    const v = view.current
    if (!v || v.state.doc.toString() === value) return
    external.current = true
    try {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } })
    } finally {
      external.current = false
    }
  }, [value])
  useEffect(() => {
    const v = view.current
    if (!v) return
    const doc = v.state.doc
    const list: Diagnostic[] = diagnostics.map((d) => {
      const line = doc.line(Math.min(Math.max(Number.isFinite(d.line) ? d.line : 1, 1), doc.lines))
      const from = Math.min(line.from + Math.max((Number.isFinite(d.col) ? d.col : 1) - 1, 0), line.to)
      return { from, to: line.to > from ? line.to : from, severity: 'error', message: d.message }
    })
    v.dispatch(setDiagnostics(v.state, list))
  }, [diagnostics])
  useEffect(() => {
    const v = view.current
    if (!v || !focusLine) return
    const doc = v.state.doc
    const line = doc.line(Math.min(Math.max(focusLine.line, 1), doc.lines))
    const pos = Math.min(line.from + Math.max(focusLine.col - 1, 0), line.to)
    v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) })
    v.focus()
  }, [focusLine])
  return <div className="cc-code" ref={host} data-testid="source-editor" />
}
