import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { DefinitionFile } from '../../engine/snapshot/types'

/** Reads every .json file under the definitions folder; paths are relative to the project root. */
export function readDefinitionFiles(definitionsDir: string, projectRoot: string): DefinitionFile[] {
  const out: DefinitionFile[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name)
      const st = statSync(full)
      if (st.isDirectory()) walk(full)
      else if (name.endsWith('.json'))
        out.push({ path: toPosix(relative(projectRoot, full)), text: readFileSync(full, 'utf8') })
    }
  }
  if (existsSync(definitionsDir)) walk(definitionsDir)
  return out
}

export function toPosix(p: string): string {
  return p.split(sep).join('/')
}

/** Asset check for image references: public files live in ui/public. */
export function publicAssetExists(projectRoot: string): (src: string) => boolean {
  const base = join(projectRoot, 'ui', 'public')
  return (src) => {
    const clean = src.split('?')[0]
    if (clean.includes('..')) return false
    return existsSync(join(base, clean))
  }
}
