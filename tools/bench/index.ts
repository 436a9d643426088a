/**
 * npm run bench — runs every tools/bench/*.bench.ts module in name order and prints its figures.
 * A bench module default-exports `async function run(): Promise<void>` that prints its own table
 * (figures and ratios measured side by side in one run), and sets `process.exitCode` when a limit it
 * checks is missed. `npm run bench -- events` runs only the modules whose name contains "events";
 * arguments after the name are the module's (`npm run bench -- fleet --instances 4`).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const filter = process.argv[2]
const dir = import.meta.dirname
const modules = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !filter || f.includes(filter))
  .sort()
if (modules.length === 0) {
  console.log('no benchmarks found')
}
for (const file of modules) {
  console.log(`\n=== ${file.replace('.bench.ts', '')} ===`)
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: () => Promise<void> }
  await mod.default()
}
