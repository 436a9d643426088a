/**
 * Where uploaded images are used (CONTROL-CENTER §3 "Image": the "used by" list, delete refused while
 * used, replace updating every reference). A use is any object with a `src` naming the image — a
 * page's `image`, an experiment variant's `overrides.image`, an article's `image`, a brand's logo,
 * icon or favicon (common.schema.json#/$defs/Image) — found by walking each definition file, so a new
 * image field is covered without a list to update.
 */
import { kindOfPath } from '../../definitions/kinds'

export interface ImageUse {
  /** Definition kind of the file that uses the image (page, experiment, article, brand, …). */
  kind: string
  /** Document id (the file name without .json). */
  id: string
  path: string
  /** JSON pointer of the object holding `src` (e.g. `/image`, `/variants/1/overrides/image`). */
  pointer: string
}

const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** Pointers of every object in `value` whose `src` is one of `srcs`, with the src each names. */
export function srcPointers(value: unknown, srcs: ReadonlySet<string>): { pointer: string; src: string }[] {
  const out: { pointer: string; src: string }[] = []
  const walk = (v: unknown, pointer: string) => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${pointer}/${i}`)
    } else if (v && typeof v === 'object') {
      const src = (v as Record<string, unknown>).src
      if (typeof src === 'string' && srcs.has(src)) out.push({ pointer, src })
      for (const [k, item] of Object.entries(v)) walk(item, `${pointer}/${escapeKey(k)}`)
    }
  }
  walk(value, '')
  return out
}

/**
 * The uses of each image, by image src, over a tree's definition files (paths relative to the
 * repository root, `definitions/…`). Image documents themselves and unparsable files are skipped.
 */
export function imageUsage(
  files: readonly { path: string; text: string }[],
  srcs: Iterable<string>,
): Map<string, ImageUse[]> {
  const wanted = new Set(srcs)
  const uses = new Map<string, ImageUse[]>([...wanted].map((s) => [s, []]))
  if (!wanted.size) return uses
  for (const f of files) {
    if (!f.path.startsWith('definitions/') || !f.path.endsWith('.json')) continue
    const rel = f.path.slice('definitions/'.length)
    const kind = kindOfPath(rel)
    if (kind?.kind === 'image') continue
    let doc: unknown
    try {
      doc = JSON.parse(f.text)
    } catch {
      continue
    }
    const id = rel
      .split('/')
      .at(-1)!
      .replace(/\.json$/, '')
    for (const { pointer, src } of srcPointers(doc, wanted))
      uses.get(src)!.push({ kind: kind?.kind ?? 'other', id, path: f.path, pointer })
  }
  return uses
}
