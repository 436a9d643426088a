/**
 * npm run bench — runs every tools/bench/*.bench.ts module in name order and prints its figures.
 * A bench module default-exports `async function run(targets: BenchTargets): Promise<void>` that
 * prints its own table (figures and ratios measured side by side in one run) and records each target
 * it checks with `targets.check`. At the end every missed (or unmeasured) target is listed with its
 * bench, and the run exits 1 (docs/decisions/0214). `npm run bench -- events` runs only the modules
 * whose name contains "events"; arguments after the name are the module's
 * (`npm run bench -- fleet --instances 4`).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BenchTargets } from './targets'

const filter = process.argv[2]
const dir = import.meta.dirname
const modules = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !filter || f.includes(filter))
  .sort()
if (modules.length === 0) {
  console.log('no benchmarks found')
}
const targets = new BenchTargets()
for (const file of modules) {
  targets.bench = file.replace('.bench.ts', '')
  console.log(`\n=== ${targets.bench} ===`)
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as {
    default: (targets: BenchTargets) => Promise<void>
  }
  await mod.default(targets)
}
if (targets.verdicts.length) {
  console.log('')
  for (const line of targets.summary()) console.log(line)
}
if (targets.failed().length) process.exitCode = 1
