/** The registry's editor widgets: Markdown in CodeMirror (loaded on demand) and the action/condition builder. */
import { lazy, Suspense } from 'react'
import type { SingleAction } from '../../../../schemas/generated/action'
import { Loading } from '../../States'
import { FieldErrors } from '../Field'
import type { WidgetProps } from '../types'
import { ActionList } from './ActionList'

const MarkdownEditor = lazy(() => import('../../MarkdownEditor'))

/** Markdown kept exactly as typed; a body stored as lines stays lines. */
export function MarkdownWidget(p: WidgetProps) {
  const lines = Array.isArray(p.value)
  const text = lines ? (p.value as string[]).join('\n') : typeof p.value === 'string' ? p.value : ''
  return (
    <div className={`fw-form-markdown${p.ui.className ? ` ${p.ui.className}` : ''}`}>
      <p className="cc-field">
        <span id={`${p.id}-label`}>{p.label}</span>
      </p>
      <small id={`${p.id}-help`} className="muted">
        {p.ui.help}
        {lines ? ' One line per list entry in the file.' : ''}
      </small>
      <Suspense fallback={<Loading what="the Markdown editor" />}>
        <MarkdownEditor
          value={text}
          label={p.label}
          describedBy={p.describedBy}
          readOnly={p.readOnly}
          onChange={(t) => p.onChange(lines ? t.split('\n') : t)}
        />
      </Suspense>
      <FieldErrors id={`${p.id}-err`} errors={p.errors} pointer={p.pointer} />
    </div>
  )
}

/** A step's `onSubmit`/`onEnter` (one action or a list) in the sentence-form builder of funnel/ActionList. */
export function ActionsWidget(p: WidgetProps) {
  const list = (Array.isArray(p.value) ? p.value : p.value ? [p.value] : []) as SingleAction[]
  return (
    <fieldset className={`pf-group fw-form-actions${p.ui.className ? ` ${p.ui.className}` : ''}`}>
      <legend>{p.label}</legend>
      <ActionList
        actions={list}
        label={p.label}
        stepNames={(p.ctx.stepNames as string[] | undefined) ?? []}
        fieldKinds={(p.ctx.fieldKinds as Record<string, string> | undefined) ?? {}}
        disabled={p.readOnly}
        onChange={(next) => p.onChange(next.length || p.ui.literal ? next : undefined)}
      />
      <FieldErrors id={`${p.id}-err`} errors={p.errors} pointer={p.pointer} />
    </fieldset>
  )
}
