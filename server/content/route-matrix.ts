/**
 * The route → brands table of docs/decisions/0100-route-brand-matrix.md is a contract in both
 * directions: every route a page serves has its row with exactly the page's brands, and every row is
 * served. `npm run validate` reports a difference at the page's line (or the table's), the e2e test
 * then asserts the running server answers as the table says, and `npm run new` adds the row of a page
 * it scaffolds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { LocatedJson } from '../../engine/definitions/locate'
import type { DefinitionError, Snapshot } from '../../engine/snapshot/types'

export const ROUTE_MATRIX_FILE = join('docs', 'decisions', '0100-route-brand-matrix.md')

const ROW = /^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$/

export interface MatrixRow {
  route: string
  kind: string
  brands: string[]
  /** 1-based line in the record. */
  line: number
}

export function readRouteMatrix(projectRoot: string): MatrixRow[] | null {
  const file = join(projectRoot, ROUTE_MATRIX_FILE)
  if (!existsSync(file)) return null
  return parseRouteMatrix(readFileSync(file, 'utf8'))
}

export function parseRouteMatrix(text: string): MatrixRow[] {
  const rows: MatrixRow[] = []
  text.split('\n').forEach((line, i) => {
    const m = ROW.exec(line.trim())
    if (m) rows.push({ route: m[1], kind: m[2].trim(), brands: m[3].trim().split(/\s+/), line: i + 1 })
  })
  return rows
}

interface ServedRoute {
  brands: Set<string>
  /** Where the route is declared (first page that declares it). */
  file: string
  pointer: string
  kind: string
}

/** Every route pattern a page serves, with the union of the brands of the pages that declare it. */
export function servedRoutes(snapshot: Snapshot): Map<string, ServedRoute> {
  const routes = new Map<string, ServedRoute>()
  for (const p of snapshot.pages.values()) {
    if (p.brands.length === 0) continue
    const declared = [
      { route: p.path, pointer: '/path' },
      ...(p.aliases ?? []).map((route, i) => ({ route, pointer: `/aliases/${i}` })),
    ]
    for (const d of declared) {
      const r = routes.get(d.route) ?? {
        brands: new Set(),
        file: p.file,
        pointer: d.pointer,
        kind: p.template,
      }
      for (const b of p.brands) r.brands.add(b)
      routes.set(d.route, r)
    }
  }
  return routes
}

const sameSet = (a: Set<string>, b: string[]) => a.size === b.length && b.every((x) => a.has(x))
const list = (brands: Iterable<string>) => [...brands].join(' ')

/**
 * The differences between the snapshot's routes and the table, as definition errors: a route missing
 * from the table at the page's line; a row with other brands, or served by no page, at the table's line.
 */
export function checkRouteMatrix(snapshot: Snapshot, projectRoot: string): DefinitionError[] {
  const rows = readRouteMatrix(projectRoot)
  if (!rows) return []
  const tableFile = ROUTE_MATRIX_FILE.split('\\').join('/')
  const served = servedRoutes(snapshot)
  const errors: DefinitionError[] = []
  const byRoute = new Map(rows.map((r) => [r.route, r]))
  for (const [route, s] of served) {
    if (byRoute.has(route)) continue
    const text = readFileSync(join(projectRoot, s.file), 'utf8')
    const pos = new LocatedJson(text).positionOf(s.pointer)
    errors.push({
      file: s.file,
      ...pos,
      pointer: s.pointer,
      message: `route "${route}" (brands ${list(s.brands)}) is missing from the route → brand table in ${tableFile}: add the row | \`${route}\` | ${s.kind} | ${list(s.brands)} |`,
    })
  }
  for (const row of rows) {
    const s = served.get(row.route)
    const at = { file: tableFile, line: row.line, column: 1, pointer: '' }
    if (!s) errors.push({ ...at, message: `route "${row.route}" is listed but no page serves it` })
    else if (!sameSet(s.brands, row.brands))
      errors.push({
        ...at,
        message: `route "${row.route}" lists brands ${list(row.brands)} but its pages serve ${list(s.brands)}`,
      })
  }
  return errors
}

/** Adds a row for `route` at the end of the table (used by `npm run new`); false when there is no table. */
export function addRouteMatrixRow(projectRoot: string, row: Omit<MatrixRow, 'line'>): boolean {
  const file = join(projectRoot, ROUTE_MATRIX_FILE)
  if (!existsSync(file)) return false
  const lines = readFileSync(file, 'utf8').split('\n')
  const last = lines.map((l) => ROW.test(l.trim())).lastIndexOf(true)
  if (last < 0) return false
  lines.splice(last + 1, 0, `| \`${row.route}\` | ${row.kind} | ${row.brands.join(' ')} |`)
  writeFileSync(file, lines.join('\n'))
  return true
}
