import { useId, useMemo, useState } from 'react'
import { ABSENT, type MergeConflict, type MergeValue } from '../../engine/control-center/content/json-merge'
import { mergeJsonText } from '../../engine/control-center/content/merge-json-text'
import type { FileConflicts } from '../../schemas/generated/cc-answers/common'
import { Dialog } from './Dialog'
import './merge.css'
import { FormError } from './States'
import { useMutation } from './use-mutation'

type Side = 'theirs' | 'mine' | 'edit'

/** One conflicting field of one file, as the browser's own merge finds it (ABSENT kept, not null). */
interface Field {
  key: string
  path: string
  conflict: MergeConflict
  /** The values are strings (or absent): edited as text, else as JSON. */
  plain: boolean
}

/** A file the dialog can settle: its three texts, and the fields both sides changed. */
interface Settleable {
  path: string
  texts: NonNullable<FileConflicts['texts']>
  fields: Field[]
}

const isPlain = (v: MergeValue) => v === ABSENT || typeof v === 'string'

/** `/cta/label` → `cta › label`; the whole file for ``. */
export function fieldLabel(pointer: string): string {
  if (!pointer) return 'The whole file'
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join(' › ')
}

/** A value as the dialog shows it: text as written, anything else as JSON, absence in words. */
export function shownValue(v: MergeValue, root = false): string {
  if (v === ABSENT || v === undefined)
    return root ? '(the file is deleted)' : '(not set: the field is removed)'
  if (typeof v === 'string') return v
  return JSON.stringify(v, null, 2)
}

/** The files of a 409 with their texts, conflicts found again by the same merge the server ran. */
function settleable(files: FileConflicts[]): Settleable[] {
  const out: Settleable[] = []
  for (const f of files) {
    if (!f.texts) continue
    const { base, theirs, mine } = f.texts
    const r = mergeJsonText(base, theirs, mine)
    const conflicts: MergeConflict[] = r.ok ? [] : r.conflicts
    out.push({
      path: f.path,
      texts: f.texts,
      fields: conflicts.map((c) => {
        const root = c.pointer === ''
        // A whole file that is not JSON: its texts are the values.
        const conflict = root
          ? {
              pointer: '',
              base: base ?? ABSENT,
              theirs: theirs ?? ABSENT,
              mine: mine ?? ABSENT,
            }
          : c
        return {
          key: `${f.path}\0${c.pointer}`,
          path: f.path,
          conflict,
          plain: root || (isPlain(c.theirs) && isPlain(c.mine)),
        }
      }),
    })
  }
  return out
}

/** The value written in the "Write another value" box, or an error naming what is wrong. */
function editedValue(
  field: Field,
  text: string,
): { ok: true; value: MergeValue } | { ok: false; error: string } {
  if (field.plain) return { ok: true, value: text }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` }
  }
}

/** A settled file's new text (null deletes it), or the first field still open. */
export function resolveFile(
  file: Settleable,
  choices: Record<string, Side | undefined>,
  edits: Record<string, string>,
): { ok: true; text: string | null } | { ok: false; key: string; error: string } {
  for (const f of file.fields) {
    const side = choices[f.key]
    if (!side) return { ok: false, key: f.key, error: 'choose which value to keep' }
    if (side === 'edit') {
      const v = editedValue(f, edits[f.key] ?? '')
      if (!v.ok) return { ok: false, key: f.key, error: v.error }
    }
  }
  const chosenValue = (f: Field): MergeValue => {
    const side = choices[f.key]
    if (side === 'edit') return (editedValue(f, edits[f.key] ?? '') as { value: MergeValue }).value
    return side === 'theirs' ? f.conflict.theirs : f.conflict.mine
  }
  const root = file.fields.find((f) => f.conflict.pointer === '')
  if (root) {
    const v = chosenValue(root)
    return { ok: true, text: v === ABSENT ? null : (v as string) }
  }
  const byPointer = new Map(file.fields.map((f) => [f.conflict.pointer, f]))
  const r = mergeJsonText(file.texts.base, file.texts.theirs, file.texts.mine, (c) => {
    const f = byPointer.get(c.pointer)
    return f ? chosenValue(f) : undefined
  })
  if (!r.ok) {
    const open = r.conflicts[0]
    return { ok: false, key: `${file.path}\0${open.pointer}`, error: 'this field still conflicts' }
  }
  return { ok: true, text: r.text }
}

/**
 * The merge dialog (CONTROL-CENTER §2.5 A): someone committed the same fields of a file while I edited
 * it. Changes to different fields are already merged; for each field both of us changed it shows the
 * value before either change, theirs and mine, and asks which to keep (or another value). The result is
 * written on the head their commit made and committed with it as `expectedHead`. Key it by `head`, so a
 * newer conflict starts with fresh choices.
 */
export function MergeDialog({
  open,
  files,
  head,
  message: initialMessage,
  onCommit,
  onClose,
}: {
  open: boolean
  /** The 409's conflicts, with each file's texts. */
  files: FileConflicts[]
  /** The head the conflicting side was read from (the 409's `head`). */
  head: string
  message: string
  /** Saves each settled text as my draft on `head` and commits it with `expectedHead: head`. */
  onCommit: (
    resolved: { path: string; text: string | null }[],
    head: string,
    message: string,
  ) => Promise<void>
  onClose: () => void
}) {
  const settle = useMemo(() => settleable(files), [files])
  const [choices, setChoices] = useState<Record<string, Side | undefined>>({})
  const [edits, setEdits] = useState<Record<string, string>>({})
  const [message, setMessage] = useState(initialMessage)
  const [problem, setProblem] = useState<{ key: string; error: string } | null>(null)
  const save = useMutation((resolved: { path: string; text: string | null }[]) =>
    onCommit(resolved, head, message.trim()),
  )
  const id = useId()

  const fields = settle.flatMap((f) => f.fields)
  const unsettleable = files.filter((f) => !f.texts)
  const count = fields.length
  return (
    <Dialog open={open} title="Merge your changes" onClose={onClose} wide>
      <form
        className="stack cc-merge"
        data-testid="merge-dialog"
        onSubmit={(e) => {
          e.preventDefault()
          const resolved: { path: string; text: string | null }[] = []
          for (const f of settle) {
            const r = resolveFile(f, choices, edits)
            if (!r.ok) {
              setProblem({ key: r.key, error: r.error })
              document.getElementById(`${id}-${fields.findIndex((x) => x.key === r.key)}`)?.focus()
              return
            }
            resolved.push({ path: f.path, text: r.text })
          }
          setProblem(null)
          save.run(resolved)
        }}
      >
        <p>
          Someone committed to this branch while you were editing. Their changes to other fields are merged
          with yours. {count === 1 ? 'One field was' : `${count} fields were`} changed by both of you: choose
          which value to keep.
        </p>
        {unsettleable.length > 0 && (
          <p className="cc-form-error" role="alert">
            {unsettleable.map((f) => f.path).join(', ')}: edit the Source to settle{' '}
            {unsettleable.length === 1 ? 'it' : 'them'}, then commit again.
          </p>
        )}
        {fields.map((f, i) => (
          <MergeField
            key={f.key}
            field={f}
            name={`${id}-${i}`}
            side={choices[f.key]}
            edit={edits[f.key]}
            problem={problem?.key === f.key ? problem.error : null}
            onSide={(side) => setChoices((c) => ({ ...c, [f.key]: side }))}
            onEdit={(text) => setEdits((x) => ({ ...x, [f.key]: text }))}
          />
        ))}
        <label className="cc-field">
          <span>Message</span>
          <input required value={message} onChange={(e) => setMessage(e.target.value)} />
        </label>
        <FormError message={save.error} />
        <div className="cc-row">
          <button
            type="submit"
            className="button button-primary"
            disabled={save.busy || !message.trim() || !settle.length}
          >
            {save.busy ? 'Committing…' : 'Commit the merge'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel (keep my draft)
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/** One field both sides changed: the value before, theirs, mine, or another value written in. */
function MergeField({
  field: f,
  name,
  side,
  edit,
  problem: bad,
  onSide,
  onEdit,
}: {
  field: Field
  /** The radio group's name; the first radio's id (focused when the field is still open). */
  name: string
  side: Side | undefined
  edit: string | undefined
  problem: string | null
  onSide: (side: Side) => void
  onEdit: (text: string) => void
}) {
  const root = f.conflict.pointer === ''
  const errorId = `${name}-error`
  return (
    <fieldset
      className="cc-merge-field"
      data-testid="merge-field"
      data-pointer={f.conflict.pointer}
      aria-describedby={bad ? errorId : undefined}
    >
      <legend>
        <span className="cc-merge-name">{fieldLabel(f.conflict.pointer)}</span>{' '}
        <code className="cc-merge-where">
          {f.path}
          {f.conflict.pointer}
        </code>
      </legend>
      <div className="cc-merge-base">
        <span className="cc-merge-side">Before either change</span>
        <pre className="cc-merge-value">{shownValue(f.conflict.base, root)}</pre>
      </div>
      <div className="cc-merge-options">
        {(
          [
            ['theirs', 'Keep theirs', 'on the branch now', f.conflict.theirs],
            ['mine', 'Keep mine', 'your draft', f.conflict.mine],
          ] as const
        ).map(([value, title, note, v], n) => (
          <label key={value} className={`cc-merge-option${side === value ? ' is-chosen' : ''}`}>
            <span className="cc-merge-pick">
              <input
                type="radio"
                id={n === 0 ? name : undefined}
                name={name}
                value={value}
                checked={side === value}
                onChange={() => onSide(value)}
              />
              <span>
                <strong>{title}</strong> <span className="muted">({note})</span>
              </span>
            </span>
            <pre className="cc-merge-value" data-testid={`merge-${value}`}>
              {shownValue(v, root)}
            </pre>
          </label>
        ))}
        <div className={`cc-merge-option cc-merge-edit${side === 'edit' ? ' is-chosen' : ''}`}>
          <label className="cc-merge-pick">
            <input
              type="radio"
              name={name}
              value="edit"
              checked={side === 'edit'}
              onChange={() => {
                onSide('edit')
                // The box starts with my value, once.
                if (edit === undefined)
                  onEdit(
                    f.conflict.mine === ABSENT
                      ? ''
                      : f.plain
                        ? String(f.conflict.mine)
                        : JSON.stringify(f.conflict.mine, null, 2),
                  )
              }}
            />
            <span>
              <strong>Write another value</strong>
              {!f.plain && <span className="muted"> (JSON)</span>}
            </span>
          </label>
          {side === 'edit' && (
            <textarea
              aria-label={`Value of ${fieldLabel(f.conflict.pointer)}`}
              className="cc-merge-input"
              rows={Math.min(12, Math.max(2, (edit ?? '').split('\n').length))}
              value={edit ?? ''}
              onChange={(e) => onEdit(e.target.value)}
              aria-invalid={bad ? true : undefined}
              aria-describedby={bad ? errorId : undefined}
            />
          )}
        </div>
      </div>
      {bad && (
        <p className="cc-form-error" id={errorId}>
          {bad}
        </p>
      )}
    </fieldset>
  )
}
