import { useState } from 'react'
import type { FileConflicts } from '../../schemas/generated/cc-answers/common'
import { jsonValue } from './States'

export interface Resolution {
  path: string
  pointer: string
  take: 'theirs' | 'mine'
}

/** Base, theirs and mine per pointer; the user picks one side for each (CONTROL-CENTER §2.5). */
export function ConflictChooser({
  conflicts,
  theirsLabel,
  mineLabel,
  onResolve,
  busy,
}: {
  conflicts: FileConflicts[]
  theirsLabel: string
  mineLabel: string
  onResolve: (r: Resolution[]) => void
  busy?: boolean
}) {
  const [choice, setChoice] = useState<Record<string, 'theirs' | 'mine'>>({})
  const all = conflicts.flatMap((f) => f.conflicts.map((c) => ({ path: f.path, ...c })))
  const done = all.every((c) => choice[`${c.path}\0${c.pointer}`])
  return (
    <form
      className="stack"
      data-testid="conflicts"
      onSubmit={(e) => {
        e.preventDefault()
        onResolve(
          all.map((c) => ({ path: c.path, pointer: c.pointer, take: choice[`${c.path}\0${c.pointer}`] })),
        )
      }}
    >
      {all.map((c) => {
        const key = `${c.path}\0${c.pointer}`
        return (
          <fieldset key={key} className="cc-conflict">
            <legend>
              <code>{c.path}</code> <code>{c.pointer}</code>
            </legend>
            <p className="muted">
              Base: <code>{jsonValue(c.base)}</code>
            </p>
            <label className="cc-choice">
              <input
                type="radio"
                name={key}
                checked={choice[key] === 'theirs'}
                onChange={() => setChoice({ ...choice, [key]: 'theirs' })}
              />
              <span>
                {theirsLabel}: <code>{jsonValue(c.theirs)}</code>
              </span>
            </label>
            <label className="cc-choice">
              <input
                type="radio"
                name={key}
                checked={choice[key] === 'mine'}
                onChange={() => setChoice({ ...choice, [key]: 'mine' })}
              />
              <span>
                {mineLabel}: <code>{jsonValue(c.mine)}</code>
              </span>
            </label>
          </fieldset>
        )
      })}
      <button type="submit" className="button button-primary" disabled={!done || busy}>
        {busy ? 'Applying…' : 'Apply my choices'}
      </button>
    </form>
  )
}

/** The API gives `[{path, conflicts}]`; be lenient with a flat list. */
export function asFileConflicts(raw: unknown, path = ''): FileConflicts[] {
  if (!Array.isArray(raw)) return []
  if (raw.every((r) => r && typeof r === 'object' && 'conflicts' in r)) return raw as FileConflicts[]
  return [{ path, conflicts: raw as FileConflicts['conflicts'] }]
}
