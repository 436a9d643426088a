/**
 * Route patterns of page definitions:
 *   /grocery                 static
 *   /quiz/otc/{step?}        optional trailing parameter
 *   /ac-v1/{token}/{step?}   required parameter
 *   /reviews/{slug...}       one or more trailing segments (catch-all)
 */
export type Segment =
  | { kind: 'static'; value: string }
  | { kind: 'param'; name: string; optional: boolean }
  | { kind: 'rest'; name: string }

export interface RoutePattern {
  source: string
  segments: Segment[]
  /** Same string for two patterns that match the same paths (parameter names ignored). */
  shape: string
  /** Higher wins when two patterns match: static segments beat parameters, parameters beat catch-alls. */
  specificity: number[]
}

export type RouteParams = Record<string, string>

const PARAM = /^\{([a-zA-Z][a-zA-Z0-9_]*)(\?|\.\.\.)?\}$/

export class RoutePatternError extends Error {}

export function compileRoutePattern(source: string): RoutePattern {
  if (!source.startsWith('/')) throw new RoutePatternError(`route pattern "${source}" must start with /`)
  const parts = source === '/' ? [] : source.slice(1).split('/')
  const segments: Segment[] = []
  const names = new Set<string>()
  parts.forEach((part, i) => {
    const last = i === parts.length - 1
    if (part === '') throw new RoutePatternError(`route pattern "${source}" has an empty segment`)
    const m = PARAM.exec(part)
    if (!m) {
      if (/[{}]/.test(part))
        throw new RoutePatternError(
          `route pattern "${source}": "${part}" is not a valid parameter (use {name}, {name?} or {name...})`,
        )
      if (!/^[a-z0-9][a-z0-9._-]*$/.test(part))
        throw new RoutePatternError(
          `route pattern "${source}": segment "${part}" must be lower-case letters, digits, dots, dashes or underscores`,
        )
      segments.push({ kind: 'static', value: part })
      return
    }
    const [, name, modifier] = m
    if (names.has(name)) throw new RoutePatternError(`route pattern "${source}" repeats parameter {${name}}`)
    names.add(name)
    if (modifier === '...') {
      if (!last)
        throw new RoutePatternError(`route pattern "${source}": {${name}...} must be the last segment`)
      segments.push({ kind: 'rest', name })
    } else if (modifier === '?') {
      if (!last)
        throw new RoutePatternError(`route pattern "${source}": optional {${name}?} must be the last segment`)
      segments.push({ kind: 'param', name, optional: true })
    } else {
      segments.push({ kind: 'param', name, optional: false })
    }
  })
  const shape = `/${segments.map((s) => (s.kind === 'static' ? s.value : s.kind === 'rest' ? '*' : s.optional ? ':?' : ':')).join('/')}`
  const specificity = segments.map((s) =>
    s.kind === 'static' ? 3 : s.kind === 'param' ? (s.optional ? 1 : 2) : 0,
  )
  return { source, segments, shape, specificity }
}

/** Matches a decoded pathname (no query, no trailing slash except "/") against a pattern. */
export function matchRoutePattern(pattern: RoutePattern, pathname: string): RouteParams | null {
  const parts = pathname === '/' ? [] : pathname.replace(/^\//, '').split('/')
  const params: RouteParams = {}
  const segs = pattern.segments
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]
    const part = parts[i]
    if (seg.kind === 'rest') {
      const rest = parts.slice(i)
      if (rest.length === 0 || rest.some((p) => p === '')) return null
      params[seg.name] = rest.map(safeDecode).join('/')
      return params
    }
    if (part === undefined) {
      if (seg.kind === 'param' && seg.optional) return params
      return null
    }
    if (part === '') return null
    if (seg.kind === 'static') {
      if (part !== seg.value) return null
    } else {
      params[seg.name] = safeDecode(part)
    }
  }
  return parts.length === segs.length ? params : null
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Orders patterns most specific first (lexicographic on specificity, then longer first). */
export function compareSpecificity(a: RoutePattern, b: RoutePattern): number {
  const n = Math.max(a.specificity.length, b.specificity.length)
  for (let i = 0; i < n; i++) {
    const x = a.specificity[i] ?? -1
    const y = b.specificity[i] ?? -1
    if (x !== y) return y - x
  }
  return 0
}

/** Builds a concrete path from a pattern and parameters (optional ones may be left out). */
export function buildPath(pattern: RoutePattern, params: RouteParams): string {
  const out: string[] = []
  for (const seg of pattern.segments) {
    if (seg.kind === 'static') out.push(seg.value)
    else {
      const v = params[seg.name]
      if (v === undefined || v === '') {
        if (seg.kind === 'param' && seg.optional) break
        throw new Error(`missing route parameter ${seg.name} for ${pattern.source}`)
      }
      out.push(seg.kind === 'rest' ? v.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(v))
    }
  }
  return `/${out.join('/')}`
}
