/**
 * Fails when engine/, server/ or ui/ has an import cycle (issue 13; docs/architecture.md), and when
 * a layer imports what it may not: engine/ imports neither ui/ nor server/, ui/ never imports
 * server/ and server/ never imports ui/ (answer types both read live in schemas/, docs/decisions/0971).
 * Type-only imports count too: the graph is meant to be a tree, whatever the compiler erases. And
 * the control center's handlers (server/control-center/api/) run no SQL themselves.
 * Parses with Rolldown's oxc parser, which Vite already brings (TypeScript 7 has no JS compiler API for
 * madge or dependency-cruiser).
 *
 *   npm run check:imports
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { parseSync } from 'rolldown/utils'

const ROOT = resolve(import.meta.dirname, '..')
const LAYERS = ['engine', 'server', 'ui'] as const
/** What each layer must not import (ARCHITECTURE.md: engine is pure; ui and server never reach each other). */
const FORBIDDEN: Record<string, readonly string[]> = {
  engine: ['ui/', 'server/'],
  server: ['ui/'],
  ui: ['server/'],
}
const SOURCE = /\.(ts|tsx|mts)$/

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return SOURCE.test(name) && !/\.(test|e2e|bench)\.tsx?$/.test(name) ? [path] : []
  })
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec)
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ])
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate
  return null
}

function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const { module, errors } = parseSync(file, source)
  if (errors.length) throw new Error(`${relative(ROOT, file)}: ${errors[0].message}`)
  const specs = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) =>
      e.entries.flatMap((x) => (x.moduleRequest ? [x.moduleRequest.value] : [])),
    ),
    ...module.dynamicImports.map((d) => {
      const raw = source.slice(d.moduleRequest.start, d.moduleRequest.end)
      return /^['"`]/.test(raw) ? raw.slice(1, -1) : ''
    }),
  ]
  return [...new Set(specs.flatMap((s) => resolveImport(file, s) ?? []))]
}

const rel = (f: string) => relative(ROOT, f)
const files = LAYERS.flatMap((l) => sourceFiles(join(ROOT, l)))
const graph = new Map(files.map((f) => [f, importsOf(f)]))
const problems: string[] = []

for (const [file, deps] of graph) {
  const layer = rel(file).split('/')[0]
  for (const dep of deps)
    if ((FORBIDDEN[layer] ?? []).some((p) => rel(dep).startsWith(p)))
      problems.push(`${rel(file)} imports ${rel(dep)}: ${layer}/ may not import ${rel(dep).split('/')[0]}/`)
}

// The control center's handlers hold no SQL: they call the services or server/control-center/store/
// (docs/decisions/0971).
const HANDLERS = 'server/control-center/api/'
const SQL_CALL = /\.(query|transaction)\s*[<(]/
for (const file of graph.keys())
  if (rel(file).startsWith(HANDLERS) && SQL_CALL.test(readFileSync(file, 'utf8')))
    problems.push(`${rel(file)} runs SQL: a control-center handler calls a service or a store module instead`)

// Cycles: depth-first search; each cycle reported once, from its smallest file name.
const state = new Map<string, 'open' | 'done'>()
const stack: string[] = []
const seen = new Set<string>()
function visit(file: string): void {
  state.set(file, 'open')
  stack.push(file)
  for (const dep of graph.get(file) ?? []) {
    if (!graph.has(dep)) continue
    if (state.get(dep) === 'open') {
      const cycle = stack.slice(stack.indexOf(dep)).map(rel)
      const start = cycle.indexOf([...cycle].sort()[0])
      const key = [...cycle.slice(start), ...cycle.slice(0, start)]
      if (!seen.has(key.join(' '))) {
        seen.add(key.join(' '))
        problems.push(`import cycle: ${[...key, key[0]].join(' -> ')}`)
      }
    } else if (!state.has(dep)) visit(dep)
  }
  stack.pop()
  state.set(file, 'done')
}
for (const file of graph.keys()) if (!state.has(file)) visit(file)

if (problems.length) {
  for (const p of problems) console.error(p)
  console.error(
    `\n${problems.length} import problem${problems.length > 1 ? 's' : ''} in ${LAYERS.join('/, ')}/`,
  )
  process.exit(1)
}
console.log(`ok: ${graph.size} modules in ${LAYERS.join('/, ')}/, no import cycle, layers respected`)
