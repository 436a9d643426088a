/**
 * Generates TypeScript types from the JSON Schemas in schemas/ and its folders (schemas/cc-answers: the
 * control center's API answers, docs/decisions/0975) — the one source of truth.
 *   npm run gen:types          write schemas/generated/*.ts
 *   npm run gen:types -- --check   exit 1 when the committed files are stale
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { compileFromFile } from 'json-schema-to-typescript'

const root = join(import.meta.dirname, '..')
const schemasDir = join(root, 'schemas')
const outDir = join(schemasDir, 'generated')

/** Folders of schemas/ whose schemas get types too (schemas/generated/<folder>/). */
const FOLDERS = ['', 'cc-answers']

export async function generateTypes(): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const files = FOLDERS.flatMap((folder) =>
    readdirSync(join(schemasDir, folder))
      .filter((f) => f.endsWith('.schema.json'))
      .sort()
      .map((f) => posix.join(folder, f)),
  )
  for (const file of files) {
    const ts = await compileFromFile(join(schemasDir, file), {
      cwd: join(schemasDir, dirname(file)),
      bannerComment: `/* Generated from schemas/${file} by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */`,
      additionalProperties: false,
      declareExternallyReferenced: true,
      style: { singleQuote: true, semi: false, printWidth: 110 },
      unreachableDefinitions: true,
    })
    out.set(file.replace('.schema.json', '.ts'), ts)
  }
  return shareDefinitions(out)
}

/**
 * Schemas whose definitions other schemas reference: a declaration generated again, word for word,
 * in another file is imported from here instead (and re-exported, so importers keep working).
 * Earlier files are homes first: a condition lives in condition.ts even though action.ts repeats it.
 */
const HOMES = [
  'common.ts',
  'condition.ts',
  'field.ts',
  'action.ts',
  'cc-answers/common.ts',
  'cc-answers/gates.ts',
  'cc-answers/images.ts',
]

interface Declaration {
  name: string | null
  text: string
  /** The declaration without its doc comment (which names the schema it was generated for). */
  code: string
}

/** Splits generated code into top-level declarations, each with its leading doc comment. */
function declarationsOf(ts: string): { banner: string; declarations: Declaration[] } {
  const [banner, ...lines] = ts.split('\n')
  const declarations: Declaration[] = []
  let current: string[] = []
  const flush = () => {
    if (!current.length) return
    const text = current.join('\n')
    const code = text.slice(Math.max(0, text.search(/^export /m))).trim()
    declarations.push({ name: /^export (?:type|interface) (\w+)/m.exec(text)?.[1] ?? null, text, code })
    current = []
  }
  for (const line of lines) {
    const onlyComment = current.length > 0 && !current.some((l) => l.startsWith('export '))
    if (line.startsWith('/**') || (line.startsWith('export ') && !onlyComment)) flush()
    current.push(line)
  }
  flush()
  return { banner, declarations }
}

function shareDefinitions(files: Map<string, string>): Map<string, string> {
  const homeOf = new Map<string, { file: string; code: string }>()
  for (const home of HOMES) {
    const ts = files.get(home)
    if (!ts) continue
    for (const d of declarationsOf(ts).declarations)
      if (d.name && !homeOf.has(d.name)) homeOf.set(d.name, { file: home, code: d.code })
  }
  const out = new Map<string, string>()
  for (const [file, ts] of files) {
    const { banner, declarations } = declarationsOf(ts)
    const imported = new Map<string, string[]>()
    const kept = declarations.filter((d) => {
      const home = d.name ? homeOf.get(d.name) : undefined
      if (!home || home.file === file || home.code !== d.code) return true
      imported.set(home.file, [...(imported.get(home.file) ?? []), d.name!])
      return false
    })
    if (!imported.size) {
      out.set(file, ts)
      continue
    }
    const imports = [...imported].map(([home, names]) => {
      const list = names.sort().join(', ')
      const from = posix.relative(posix.dirname(file), home.replace(/\.ts$/, ''))
      return `import type { ${list} } from '${from.startsWith('.') ? from : `./${from}`}'\nexport type { ${list} }`
    })
    out.set(file, [banner, '', ...imports, ...kept.map((d) => d.text)].join('\n'))
  }
  return out
}

async function main() {
  const check = process.argv.includes('--check')
  const generated = await generateTypes()
  let stale = 0
  for (const [name, ts] of generated) {
    const path = join(outDir, name)
    let current = ''
    try {
      current = readFileSync(path, 'utf8')
    } catch {}
    if (current === ts) continue
    if (check) {
      console.error(`stale: schemas/generated/${name} (run npm run gen:types)`)
      stale++
    } else {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, ts)
      console.log(`wrote schemas/generated/${name}`)
    }
  }
  if (stale) process.exit(1)
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
