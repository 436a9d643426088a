/**
 * Our modules that a public page can load: every `.ts`/`.tsx` reached by import (static or dynamic)
 * from `ui/pages/**` outside the control center. vite.config.ts lets only these into the `shell`
 * chunk every public page loads, so code the control center's screens share among themselves (the
 * funnel flow, the gates, JSON merging…) never joins it, wherever it lives (docs/decisions/0604).
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
