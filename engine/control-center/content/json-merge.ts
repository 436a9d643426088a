/**
 * Structured three-way merge of JSON documents by JSON pointer (CONTROL-CENTER §0.5, §2.5).
 * Pure: no I/O. Edits to different fields merge silently; edits of the same field to different
 * values are conflicts that list base, theirs and mine.
 */

/** A value absent on one side (a deleted or not yet added field). */
export const ABSENT: unique symbol = Symbol('absent')
export type MergeValue = unknown | typeof ABSENT

export interface MergeConflict {
  pointer: string
  base: MergeValue
  theirs: MergeValue
  mine: MergeValue
}

/** A change taken from "mine" into the merge, as a pointer into the merged document. */
export interface MergeEdit {
  pointer: string
  /** The new value, or ABSENT to remove it. */
  value: MergeValue
}

export type MergeResult =
  | { ok: true; value: unknown; edits: MergeEdit[] }
  | { ok: false; conflicts: MergeConflict[] }

/** Keys that identify array items, so an edit follows the item when others are inserted or moved. */
export const ARRAY_IDENTITY_KEYS = ['id', 'step', 'name'] as const

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  return ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as never)[k], (b as never)[k]))
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export const escapePointer = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')

/** The identity key shared by every item of these arrays, when each item has a unique one. */
function identityKey(arrays: unknown[][]): string | null {
  for (const key of ARRAY_IDENTITY_KEYS) {
    const ok = arrays.every((arr) => {
      const seen = new Set<string>()
      return arr.every((item) => {
        if (!isObject(item)) return false
        const id = item[key]
        if (typeof id !== 'string' && typeof id !== 'number') return false
        if (seen.has(String(id))) return false
        seen.add(String(id))
        return true
      })
    })
    if (ok) return key
  }
  return null
}

/** The smallest edits turning `from` into `to`: by key in objects, by position in same-length arrays. */
export function diffEdits(from: MergeValue, to: MergeValue, pointer: string, out: MergeEdit[]): void {
  if (jsonEqual(from, to)) return
  if (isObject(from) && isObject(to)) {
    for (const k of Object.keys(from))
      if (!Object.hasOwn(to, k)) out.push({ pointer: `${pointer}/${escapePointer(k)}`, value: ABSENT })
    for (const k of Object.keys(to))
      diffEdits(Object.hasOwn(from, k) ? from[k] : ABSENT, to[k], `${pointer}/${escapePointer(k)}`, out)
    return
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length && from.length > 0) {
    for (const [i, x] of from.entries()) diffEdits(x, to[i], `${pointer}/${i}`, out)
    return
  }
  out.push({ pointer, value: to })
}

/** What the user chose for a conflict: a value (ABSENT removes the field), or undefined to leave it open. */
export type MergeResolver = (conflict: MergeConflict) => MergeValue | undefined

interface Ctx {
  conflicts: MergeConflict[]
  edits: MergeEdit[]
  resolve?: MergeResolver
}

function merge(
  base: MergeValue,
  theirs: MergeValue,
  mine: MergeValue,
  pointer: string,
  ctx: Ctx,
): MergeValue {
  if (jsonEqual(theirs, mine)) return theirs
  if (jsonEqual(base, theirs)) {
    diffEdits(theirs, mine, pointer, ctx.edits)
    return mine
  }
  if (jsonEqual(base, mine)) return theirs
  // Both sides changed this value differently.
  if (isObject(base) && isObject(theirs) && isObject(mine)) {
    const out: Record<string, unknown> = {}
    const keys = [...Object.keys(theirs), ...Object.keys(mine).filter((k) => !Object.hasOwn(theirs, k))]
    for (const k of keys) {
      const at = (o: Record<string, unknown>) => (Object.hasOwn(o, k) ? o[k] : ABSENT)
      const v = merge(at(base), at(theirs), at(mine), `${pointer}/${escapePointer(k)}`, ctx)
      if (v !== ABSENT) out[k] = v
    }
    return out
  }
  if (Array.isArray(base) && Array.isArray(theirs) && Array.isArray(mine)) {
    const key = identityKey([base, theirs, mine])
    if (key) return mergeKeyedArray(base, theirs, mine, key, pointer, ctx)
  }
  const conflict = { pointer, base, theirs, mine }
  const chosen = ctx.resolve?.(conflict)
  if (chosen === undefined) {
    ctx.conflicts.push(conflict)
    return theirs
  }
  // The user's choice: an edit of theirs like any change taken from mine.
  diffEdits(theirs, chosen, pointer, ctx.edits)
  return chosen
}

/**
 * Arrays whose items carry an identity (`id`, `step`, `name`): items merge by identity, in theirs'
 * order, with items only mine added appended. When mine adds, removes or reorders items, the edit
 * replaces the whole array (the text edit cannot express a move).
 */
function mergeKeyedArray(
  base: unknown[],
  theirs: unknown[],
  mine: unknown[],
  key: string,
  pointer: string,
  ctx: Ctx,
): unknown[] {
  const idOf = (x: unknown) => String((x as Record<string, unknown>)[key])
  const index = (arr: unknown[]) => new Map(arr.map((x) => [idOf(x), x]))
  const [b, t, m] = [index(base), index(theirs), index(mine)]
  const inner: Ctx = { conflicts: ctx.conflicts, edits: [], resolve: ctx.resolve }
  const out: unknown[] = []
  const order = [...t.keys(), ...[...m.keys()].filter((id) => !t.has(id) && !b.has(id))]
  for (const id of order) {
    const pos = out.length
    const v = merge(b.get(id) ?? ABSENT, t.get(id) ?? ABSENT, m.get(id) ?? ABSENT, `${pointer}/${pos}`, inner)
    if (v !== ABSENT) out.push(v)
  }
  const sameOrder = out.length === theirs.length && out.every((x, i) => idOf(x) === idOf(theirs[i]))
  if (sameOrder) ctx.edits.push(...inner.edits)
  else ctx.edits.push({ pointer, value: out })
  return out
}

/**
 * Merges `mine` into `theirs` given their common `base`. On success `edits` lists what came from
 * mine, as pointers into the result, so the merged text can be written as small edits of theirs'
 * text (see mergeJsonText). `resolve` settles conflicts with the user's choices (the merge dialog):
 * the pointers it sees are the ones a merge without it reports.
 */
export function mergeJson(
  base: unknown,
  theirs: unknown,
  mine: unknown,
  resolve?: MergeResolver,
): MergeResult {
  const ctx: Ctx = { conflicts: [], edits: [], resolve }
  const value = merge(base as Json, theirs as Json, mine as Json, '', ctx)
  if (ctx.conflicts.length) return { ok: false, conflicts: ctx.conflicts }
  return { ok: true, value, edits: ctx.edits }
}
