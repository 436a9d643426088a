#!/usr/bin/env node
// npm test: makes sure Debian's Chromium is present (installs it when running as root with apt),
// then runs every test project (unit, model, e2e) with vitest. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  const isRoot = process.getuid?.() === 0
  const hasApt = existsSync('/usr/bin/apt-get')
  if (isRoot && hasApt) {
    console.log("Chromium is missing; installing Debian's chromium package…")
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    const r = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
    if (r.status !== 0 || !existsSync(chromium)) {
      console.error(
        'Could not install chromium. Run: sudo apt-get update && sudo apt-get install -y chromium',
      )
      process.exit(1)
    }
  } else {
    console.error(
      `Chromium not found at ${chromium}. Install it with: sudo apt-get update && sudo apt-get install -y chromium (or set CHROME_PATH).`,
    )
    process.exit(1)
  }
}
const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
})
process.exit(r.status ?? 1)
