/**
 * Our modules that a public page can load: every `.ts`/`.tsx` reached by import (static or dynamic)
 * from `ui/pages/**` outside the control center. vite.config.ts lets only these into the `shell`
 * chunk every public page loads, so code the control center's screens share among themselves (the
 * funnel flow, the gates, JSON merging…) never joins it, wherever it lives (docs/decisions/0604).
 * `reactModules` names those of them that load React: static pages mount plain-DOM islands and must
 * never download React, so React code gets a chunk of its own (docs/decisions/0520).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s*['"](\.[^'"]+)['"]/gm

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec)
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (/\.tsx?$/.test(c) && existsSync(c) && statSync(c).isFile()) return c
  return null
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'control-center' ? [] : files(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })
}

export function publicModules(root: string): Set<string> {
  const seen = new Set<string>()
  const stack = files(join(root, 'ui', 'pages'))
  while (stack.length) {
    const file = stack.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    for (const m of source.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2] ?? m[3])
      if (target && !seen.has(target)) stack.push(target)
    }
  }
  return seen
}

/** A static (not type-only) import of React or a React binding. */
const REACT_IMPORT =
  /^(?:import|export)\s+(?!type\b)[^'"]*?from\s*['"](?:react|react-dom|@xstate\/react|@floating-ui\/react)(?:\/[^'"]*)?['"]|^import\s*['"]react(?:-dom)?(?:\/[^'"]*)?['"]/m
/** A static (not type-only) import of one of our modules. */
const STATIC_IMPORT =
  /^(?:import|export)\s+(?!type\b)[^'"]*?from\s*['"](\.[^'"]+)['"]|^import\s*['"](\.[^'"]+)['"]/gm

/**
 * Of `modules`, those that load React when they run: a `.tsx` file (JSX imports React's runtime), a
 * module importing React, or one importing such a module statically. Dynamic imports do not count:
 * they load on demand, in a chunk of their own.
 */
export function reactModules(modules: Set<string>): Set<string> {
  const imports = new Map<string, string[]>()
  const react = new Set<string>()
  for (const file of modules) {
    const source = readFileSync(file, 'utf8')
    if (file.endsWith('.tsx') || REACT_IMPORT.test(source)) react.add(file)
    imports.set(
      file,
      [...source.matchAll(STATIC_IMPORT)]
        .map((m) => resolveImport(file, m[1] ?? m[2]))
        .filter((t): t is string => t !== null),
    )
  }
  for (let grew = true; grew; ) {
    grew = false
    for (const [file, targets] of imports)
      if (!react.has(file) && targets.some((t) => react.has(t))) {
        react.add(file)
        grew = true
      }
  }
  return react
}

/**
 * `entry` and every module it can load, by static or dynamic import: all the code of ours a page with
 * that entry may ever run (the size test asserts a funnel step's holds no React and no funnel
 * machine, docs/decisions/0524).
 */
export function moduleGraph(entry: string): Set<string> {
  const seen = new Set<string>()
  const stack = [entry]
  while (stack.length) {
    const file = stack.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2] ?? m[3])
      if (target && !seen.has(target)) stack.push(target)
    }
  }
  return seen
}

/** `entry` and the modules it loads by static import: what runs before a page's entry starts. */
export function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>()
  const stack = [entry]
  while (stack.length) {
    const file = stack.pop() as string
    if (seen.has(file)) continue
    seen.add(file)
    for (const m of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2])
      if (target && !seen.has(target)) stack.push(target)
    }
  }
  return seen
}
