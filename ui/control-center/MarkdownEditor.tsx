/**
 * CodeMirror 6 with Markdown for article bodies, loaded only by the articles editor (React.lazy).
 * A source editor, never a rich-text one: the text is stored exactly as typed. Enter inserts a plain
 * newline (no list continuation, no re-indenting, no trimming of a whitespace-only line) and typing
 * an HTML tag's ">" closes nothing, so what lands in the draft is byte for byte what was typed
 * (docs/decisions/0940).
 */
import { defaultKeymap, history, historyKeymap, insertNewline } from '@codemirror/commands'
import { html } from '@codemirror/lang-html'
import { markdown } from '@codemirror/lang-markdown'
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { EditorState } from '@codemirror/state'
import {
  EditorView,
  highlightActiveLine,
  highlightTrailingWhitespace,
  keymap,
  lineNumbers,
} from '@codemirror/view'
import { useEffect, useRef } from 'react'

export interface MarkdownEditorProps {
  value: string
  onChange: (text: string) => void
  /** The accessible name of the text area. */
  label: string
  /** Id of the element describing the field (help, errors). */
  describedBy?: string
  readOnly?: boolean
}

export default function MarkdownEditor({
  value,
  onChange,
  label,
  describedBy,
  readOnly,
}: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null)
  const change = useRef(onChange)
  change.current = onChange
  // Created once per article (the parent keys it); later text comes from typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once, on purpose
  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          highlightTrailingWhitespace(),
          history(),
          // Markdown's HTML tags are highlighted by the HTML language, whose default closes a tag as
          // its ">" is typed ("<div>" became "<div></div>"): off, like tag completion.
          markdown({
            addKeymap: false,
            completeHTMLTags: false,
            htmlTagLanguage: html({ matchClosingTags: false, autoCloseTags: false }),
          }),
          syntaxHighlighting(defaultHighlightStyle),
          keymap.of([{ key: 'Enter', run: insertNewline }, ...defaultKeymap, ...historyKeymap]),
          EditorView.lineWrapping,
          // Only \n separates lines: a \r in the body stays in the text, byte for byte.
          EditorState.lineSeparator.of('\n'),
          EditorState.readOnly.of(readOnly === true),
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) change.current(u.state.doc.toString())
          }),
        ],
      }),
    })
    return () => v.destroy()
  }, [])
  return <div className="cc-code fw-md-editor" ref={host} data-testid="markdown-editor" />
}
