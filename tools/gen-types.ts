/**
 * Generates TypeScript types from the JSON Schemas in schemas/ — the one source of truth.
 *   npm run gen:types          write schemas/generated/*.ts
 *   npm run gen:types -- --check   exit 1 when the committed files are stale
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileFromFile } from 'json-schema-to-typescript'

const root = join(import.meta.dirname, '..')
const schemasDir = join(root, 'schemas')
const outDir = join(schemasDir, 'generated')

export async function generateTypes(): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const files = readdirSync(schemasDir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
  for (const file of files) {
    const ts = await compileFromFile(join(schemasDir, file), {
      cwd: schemasDir,
      bannerComment: `/* Generated from schemas/${file} by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */`,
      additionalProperties: false,
      declareExternallyReferenced: true,
      style: { singleQuote: true, semi: false, printWidth: 110 },
      unreachableDefinitions: true,
    })
    out.set(file.replace('.schema.json', '.ts'), ts)
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
      writeFileSync(path, ts)
      console.log(`wrote schemas/generated/${name}`)
    }
  }
  if (stale) process.exit(1)
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
