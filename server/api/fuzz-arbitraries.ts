/**
 * The fuzz suites' generators (server/api/api-fuzz.test.ts, server/api/cc-api-fuzz.test.ts): values
 * that have broken servers before, dates of every year, and valid bodies with a few changes.
 */
import fc from 'fast-check'

// Values that have broken servers before: edges of numbers, dates and strings.
export const edges = fc.constantFrom(
  0,
  -0,
  -1,
  1e20,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  0.1,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  '+275760-09-13T00:00:00Z',
  '2026-02-30T00:00:00Z',
  'x'.repeat(70_000),
  null,
  true,
  [],
  {},
)
// Timestamps of every year a date-time can write (the edges often), with any offset.
export const dates = fc
  .record({
    year: fc.oneof(fc.constantFrom(0, 1, 1969, 1970, 9999), fc.integer({ min: 0, max: 9999 })),
    day: fc.integer({ min: 1, max: 31 }),
    offset: fc.integer({ min: -14, max: 14 }),
  })
  .map(
    ({ year, day, offset }) =>
      `${String(year).padStart(4, '0')}-${day > 28 ? '12' : '01'}-${String(day).padStart(2, '0')}T00:00:00${offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${String(Math.abs(offset)).padStart(2, '0')}:00`}`,
  )
export const nasty = fc.oneof(
  { weight: 3, arbitrary: edges },
  { weight: 3, arbitrary: dates },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

/** Nesting deeper than any schema allows. */
export const deep = fc.integer({ min: 30, max: 3000 }).map((n) => `${'['.repeat(n)}1${']'.repeat(n)}`)

/** A valid body with one to three changes: a value (anywhere) replaced, a key added, or one removed. */
export function mutated(valid: unknown): fc.Arbitrary<string> {
  const paths: (string | number)[][] = []
  const walk = (v: unknown, path: (string | number)[]) => {
    paths.push(path)
    if (v && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) walk(child, [...path, Array.isArray(v) ? Number(k) : k])
  }
  walk(valid, [])
  const change = fc.record({
    path: fc.constantFrom(...paths),
    op: fc.oneof({ weight: 4, arbitrary: fc.constant('replace') }, fc.constantFrom('add', 'remove')),
    value: nasty,
    key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', ''), fc.string()),
  })
  return fc.array(change, { minLength: 1, maxLength: 3 }).map((changes) => {
    let copy = JSON.parse(JSON.stringify(valid))
    let protoKey = false
    for (const { path, op, value, key } of changes) {
      if (path.length === 0) {
        if (op === 'replace') copy = value
        continue
      }
      const parent = path.slice(0, -1).reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), copy)
      if (!parent || typeof parent !== 'object') continue
      const last = path[path.length - 1]
      if (op === 'replace') parent[last] = value
      else if (op === 'remove') delete parent[last]
      else if (parent[last] && typeof parent[last] === 'object') {
        // Assigning "__proto__" would set the prototype, not a key: written by hand below.
        if (key === '__proto__') protoKey = true
        parent[last][key === '__proto__' ? 'fuzzProtoKey' : key] = value
      }
    }
    const text = JSON.stringify(copy) ?? 'null'
    return protoKey ? text.replace('"fuzzProtoKey":', '"__proto__":') : text
  })
}
