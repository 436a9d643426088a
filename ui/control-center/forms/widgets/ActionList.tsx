import { useId } from 'react'
import { actionSentence, conditionWords } from '../../../../engine/funnel/funnel-flow'
import type { Condition, FieldName, SingleAction } from '../../../../schemas/generated/action'
import {
  ACTION_TYPES,
  FIELD_NAMES,
  retype,
  shown,
  typed,
  WHEN_LABELS,
  type When,
  whenOf,
} from './action-words'

interface RowProps {
  a: SingleAction
  i: number
  id: string
  count: number
  stepNames: string[]
  fieldKinds: Record<string, string>
  disabled?: boolean
  set: (i: number, a: SingleAction) => void
  move: (i: number, by: -1 | 1) => void
  remove: (i: number) => void
}

/**
 * The action and condition builder, the form registry's `actions` widget: each action of a step's
 * `onSubmit` (or `onEnter`) as a row of selects that read as a sentence ("If haveMedicaid is no, go to
 * step contact"), in the order the machine tries them, with move up/down and remove. Conditions built
 * of not/all/any are shown in words and edited in the Source tab.
 */
export function ActionList({
  actions,
  onChange,
  stepNames,
  fieldKinds,
  label,
  disabled,
}: {
  actions: SingleAction[]
  onChange: (next: SingleAction[]) => void
  stepNames: string[]
  /** The kind of each answer the funnel asks, so yes-no answers compare with yes/no. */
  fieldKinds: Record<string, string>
  label: string
  disabled?: boolean
}) {
  const base = useId()
  const set = (i: number, a: SingleAction) => onChange(actions.map((x, j) => (j === i ? a : x)))
  const move = (i: number, by: -1 | 1) => {
    const next = [...actions]
    ;[next[i], next[i + by]] = [next[i + by], next[i]]
    onChange(next)
    // Keep the keyboard on the moved row's same button.
    requestAnimationFrame(() =>
      document.getElementById(`${base}-${i + by}-${by < 0 ? 'up' : 'down'}`)?.focus({ preventScroll: false }),
    )
  }
  const remove = (i: number) => onChange(actions.filter((_, j) => j !== i))
  return (
    <div className="fw-actions stack">
      {actions.length === 0 ? (
        <p className="muted">No actions: after this step the visitor goes on to the next one.</p>
      ) : (
        <ol className="fw-action-list" aria-label={label}>
          {actions.map((a, i) => (
            <ActionRow
              // biome-ignore lint/suspicious/noArrayIndexKey: an action's place in the list is its identity (actions have no ids)
              key={`${i}:${a.type}`}
              {...{
                a,
                i,
                id: `${base}-${i}`,
                count: actions.length,
                stepNames,
                fieldKinds,
                disabled,
                set,
                move,
                remove,
              }}
            />
          ))}
        </ol>
      )}
      {!disabled && (
        <div>
          <button
            type="button"
            className="button cc-small"
            onClick={() =>
              onChange([
                ...actions,
                {
                  type: 'go-to-step',
                  step: stepNames[0] ?? '',
                  when: { type: 'answer-equals', field: 'haveMedicaid', value: false },
                },
              ])
            }
          >
            Add action
          </button>
        </div>
      )}
    </div>
  )
}

/** One action: its sentence, its condition and its consequence, and its place in the list. */
function ActionRow(p: RowProps) {
  const { a, i, id, disabled } = p
  return (
    <li className="fw-action cc-card">
      <p className="fw-action-sentence" id={`${id}-sentence`}>
        <strong>{i + 1}.</strong> {actionSentence(a)}
      </p>
      <div className="fw-action-controls">
        <WhenControls {...p} />
        <ThenControls {...p} />
      </div>
      {!disabled && (
        <div className="cc-row fw-action-buttons">
          <button
            type="button"
            id={`${id}-up`}
            className="button cc-small"
            disabled={i === 0}
            aria-describedby={`${id}-sentence`}
            onClick={() => p.move(i, -1)}
          >
            Move up
          </button>
          <button
            type="button"
            id={`${id}-down`}
            className="button cc-small"
            disabled={i === p.count - 1}
            aria-describedby={`${id}-sentence`}
            onClick={() => p.move(i, 1)}
          >
            Move down
          </button>
          <button
            type="button"
            className="button cc-small"
            aria-describedby={`${id}-sentence`}
            onClick={() => p.remove(i)}
          >
            Remove
          </button>
        </div>
      )}
    </li>
  )
}

/** "When": always, an answer equals / is one of, the bid is (not) low. */
function WhenControls({ a, i, id, fieldKinds, disabled, set }: RowProps) {
  const when = whenOf(a)
  const cond = 'when' in a ? a.when : undefined
  const setWhen = (w: When) => {
    const rest = { ...a } as Record<string, unknown>
    delete rest.when
    const field = (cond && 'field' in cond ? cond.field : 'haveMedicaid') as FieldName
    const next: Condition | undefined =
      w === 'always' || w === 'complex'
        ? undefined
        : w === 'answer-equals'
          ? { type: w, field, value: typed('no', fieldKinds[field]) }
          : w === 'answer-in'
            ? { type: w, field, values: [typed('', fieldKinds[field])] }
            : { type: w }
    set(i, (next ? { ...rest, when: next } : rest) as unknown as SingleAction)
  }
  const setCond = (c: Condition) => set(i, { ...a, when: c } as SingleAction)
  return (
    <>
      {a.type !== 'demand-check' && (
        <div className="cc-field">
          <label htmlFor={`${id}-when1`}>When</label>
          <select
            id={`${id}-when1`}
            value={when}
            disabled={disabled || when === 'complex'}
            onChange={(e) => setWhen(e.target.value as When)}
          >
            {WHEN_LABELS.map((w) => (
              <option key={w.id} value={w.id}>
                {w.label}
              </option>
            ))}
            {when === 'complex' && <option value="complex">{conditionWords(cond as Condition)}</option>}
          </select>
        </div>
      )}
      {cond && (cond.type === 'answer-equals' || cond.type === 'answer-in') && (
        <>
          <div className="cc-field">
            <label htmlFor={`${id}-answer2`}>Answer</label>
            <select
              id={`${id}-answer2`}
              value={cond.field}
              disabled={disabled}
              onChange={(e) => setCond({ ...cond, field: e.target.value as FieldName })}
            >
              {FIELD_NAMES.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          </div>
          {cond.type === 'answer-equals' ? (
            fieldKinds[cond.field] === 'yes-no' ? (
              <div className="cc-field">
                <label htmlFor={`${id}-is3`}>is</label>
                <select
                  id={`${id}-is3`}
                  value={shown(cond.value)}
                  disabled={disabled}
                  onChange={(e) => setCond({ ...cond, value: e.target.value === 'yes' })}
                >
                  <option value="yes">yes</option>
                  <option value="no">no</option>
                </select>
              </div>
            ) : (
              <div className="cc-field">
                <label htmlFor={`${id}-is4`}>is</label>
                <input
                  id={`${id}-is4`}
                  value={shown(cond.value)}
                  disabled={disabled}
                  onChange={(e) => setCond({ ...cond, value: e.target.value })}
                />
              </div>
            )
          ) : (
            <div className="cc-field">
              <label htmlFor={`${id}-is-one-of-co5`}>is one of (commas between)</label>
              <input
                id={`${id}-is-one-of-co5`}
                value={cond.values.map(shown).join(', ')}
                disabled={disabled}
                onChange={(e) => {
                  const values = e.target.value
                    .split(',')
                    .map((s) => s.trim())
                    .map((s) => typed(s, fieldKinds[cond.field]))
                  setCond({ ...cond, values: values as typeof cond.values })
                }}
              />
            </div>
          )}
        </>
      )}
    </>
  )
}

/** "Then": the action's type and what it needs (step, path, answer and value, event). */
function ThenControls({ a, i, id, stepNames, fieldKinds, disabled, set }: RowProps) {
  return (
    <>
      <div className="cc-field">
        <label htmlFor={`${id}-then6`}>Then</label>
        <select
          id={`${id}-then6`}
          value={a.type}
          disabled={disabled}
          onChange={(e) => set(i, retype(a, e.target.value as SingleAction['type'], stepNames))}
        >
          {ACTION_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      {a.type === 'go-to-step' && (
        <div className="cc-field">
          <label htmlFor={`${id}-step7`}>Step</label>
          <select
            id={`${id}-step7`}
            value={a.step}
            disabled={disabled}
            onChange={(e) => set(i, { ...a, step: e.target.value })}
          >
            {!stepNames.includes(a.step) && (
              <option value={a.step}>{a.step || '(choose)'} — not in this funnel</option>
            )}
            {stepNames.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
      )}
      {a.type === 'go-to-page' && (
        <div className="cc-field">
          <label htmlFor={`${id}-path8`}>Path</label>
          <input
            id={`${id}-path8`}
            value={a.path}
            disabled={disabled}
            onChange={(e) => set(i, { ...a, path: e.target.value })}
          />
        </div>
      )}
      {a.type === 'set-field' && (
        <>
          <div className="cc-field">
            <label htmlFor={`${id}-answer9`}>Answer</label>
            <select
              id={`${id}-answer9`}
              value={a.field}
              disabled={disabled}
              onChange={(e) => set(i, { ...a, field: e.target.value as FieldName })}
            >
              {FIELD_NAMES.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          </div>
          <div className="cc-field">
            <label htmlFor={`${id}-to10`}>to</label>
            <input
              id={`${id}-to10`}
              value={shown(a.value)}
              disabled={disabled}
              onChange={(e) => set(i, { ...a, value: typed(e.target.value, fieldKinds[a.field]) })}
            />
          </div>
        </>
      )}
      {a.type === 'track' && (
        <div className="cc-field">
          <label htmlFor={`${id}-event11`}>Event</label>
          <input
            id={`${id}-event11`}
            value={a.event}
            disabled={disabled}
            onChange={(e) => set(i, { ...a, event: e.target.value })}
          />
        </div>
      )}
    </>
  )
}
