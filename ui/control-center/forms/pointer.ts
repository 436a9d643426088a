/** JSON pointers over plain documents (RFC 6901), immutable writes, and errors by pointer. */
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'

export const tokens = (pointer: string): string[] =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))

export const topKey = (pointer: string): string => tokens(pointer)[0] ?? ''

export function getAt(doc: unknown, pointer: string): unknown {
  let at: unknown = doc
  for (const t of tokens(pointer)) {
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<string, unknown>)[t]
  }
  return at
}

/** A copy of `doc` with `v` at `pointer` (undefined removes the key; an array index is replaced). */
export function setAt<T>(doc: T, pointer: string, v: unknown): T {
  const [head, ...rest] = tokens(pointer)
  if (head === undefined) return v as T
  const tail = rest.length ? `/${rest.join('/')}` : ''
  if (Array.isArray(doc)) {
    const copy = [...doc]
    copy[Number(head)] = tail ? setAt(copy[Number(head)] ?? {}, tail, v) : v
    return copy as T
  }
  const copy = { ...((doc ?? {}) as Record<string, unknown>) }
  let next = tail ? setAt(copy[head] ?? {}, tail, v) : v
  // Removing the last property of an object removes the object (a rule's empty `match`).
  if (tail && v === undefined && isEmptyObject(next)) next = undefined
  if (next === undefined) delete copy[head]
  else copy[head] = next
  return copy as T
}

const isEmptyObject = (v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0

/** The errors at `pointer` or inside it. */
export const errorsAt = (errors: DefinitionError[], pointer: string) =>
  errors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`))

/** A field's DOM id: the form's prefix and the pointer with dashes (`pf` + `/image/alt` → `pf-image-alt`). */
export const domId = (prefix: string, pointer: string) => `${prefix}${pointer.replace(/[^a-zA-Z0-9]+/g, '-')}`

/** A property name in words: `allowExternalDestination` → "Allow external destination". */
export function words(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase()
    .trim()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}
