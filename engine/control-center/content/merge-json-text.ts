import { ABSENT, type MergeConflict, type MergeResolver, mergeJson } from './json-merge'
import { setField } from './set-field'

export type TextMergeResult = { ok: true; text: string } | { ok: false; conflicts: MergeConflict[] }

function parse(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: true, value: ABSENT }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * Three-way merge of JSON files by pointer; null text is an absent file. The result is theirs'
 * text with mine's changes applied as in-place edits, so theirs' formatting is kept and the diff
 * stays small. `resolve` settles the conflicts of parsed documents (mergeJson); a conflict of whole
 * files (pointer "", a text that is not JSON or a deleted file) is the caller's to settle.
 */
export function mergeJsonText(
  base: string | null,
  theirs: string | null,
  mine: string | null,
  resolve?: MergeResolver,
): TextMergeResult {
  if (theirs === mine || theirs === base) return { ok: true, text: mine as string }
  if (mine === base) return { ok: true, text: theirs as string }
  const [b, t, m] = [parse(base), parse(theirs), parse(mine)]
  if (!b.ok || !t.ok || !m.ok || t.value === ABSENT || m.value === ABSENT)
    return {
      ok: false,
      conflicts: [
        {
          pointer: '',
          base: b.ok ? b.value : base,
          theirs: t.ok ? t.value : theirs,
          mine: m.ok ? m.value : mine,
        },
      ],
    }
  const merged = mergeJson(b.value, t.value, m.value, resolve)
  if (!merged.ok) return merged
  let text = theirs as string
  for (const e of merged.edits) text = setField(text, e.pointer, e.value === ABSENT ? undefined : e.value)
  return { ok: true, text }
}
