/**
 * Structured diff of two JSON documents by JSON pointer (CONTROL-CENTER §2.4): what a branch
 * changes in a file, field by field (`/headline: "Get…" → "Could…"`). Pure: no I/O.
 */
import { pointerToPath } from '../../definitions/locate'
import { ABSENT, diffEdits, type MergeEdit, type MergeValue } from './json-merge'

export interface FieldChange {
  pointer: string
  op: 'add' | 'remove' | 'replace'
  before?: unknown
  after?: unknown
}

/** The value at a pointer, or ABSENT. */
export function valueAt(doc: MergeValue, pointer: string): MergeValue {
  let v: unknown = doc
  for (const key of pointerToPath(pointer)) {
    if (v === ABSENT || v === null || typeof v !== 'object') return ABSENT
    const o = v as Record<string, unknown>
    if (!Object.hasOwn(o, String(key))) return ABSENT
    v = o[String(key)]
  }
  return v
}

/** Field-level changes from `before` to `after` (ABSENT for a missing document). */
export function jsonDiff(before: MergeValue, after: MergeValue): FieldChange[] {
  const edits: MergeEdit[] = []
  diffEdits(before, after, '', edits)
  return edits.map((e) => {
    const old = valueAt(before, e.pointer)
    if (old === ABSENT) return { pointer: e.pointer, op: 'add', after: e.value }
    if (e.value === ABSENT) return { pointer: e.pointer, op: 'remove', before: old }
    return { pointer: e.pointer, op: 'replace', before: old, after: e.value }
  })
}

/** Parses a JSON text for a diff: null (no file) is ABSENT; unparsable text diffs as a string. */
export function parseForDiff(text: string | null): MergeValue {
  if (text === null) return ABSENT
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
