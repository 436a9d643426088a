#!/usr/bin/env node
// npm test: makes sure Debian's Chromium and nginx are present (installs them when running as root
// with apt), then runs every test project (unit, model, e2e) with vitest. Extra arguments go to vitest.
// nginx: tests/e2e/nginx-cache.e2e.ts runs the README's cache-in-front configuration (decision 0511).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const needed = [
  {
    what: 'Chromium',
    path: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    pkg: 'chromium',
    env: 'CHROME_PATH',
  },
  { what: 'nginx', path: process.env.NGINX_PATH ?? '/usr/sbin/nginx', pkg: 'nginx', env: 'NGINX_PATH' },
]
for (const { what, path, pkg, env: variable } of needed) {
  if (existsSync(path)) continue
  const isRoot = process.getuid?.() === 0
  const hasApt = existsSync('/usr/bin/apt-get')
  if (isRoot && hasApt) {
    console.log(`${what} is missing; installing Debian's ${pkg} package…`)
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
    const r = spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env })
    if (r.status !== 0 || !existsSync(path)) {
      console.error(`Could not install ${pkg}. Run: sudo apt-get update && sudo apt-get install -y ${pkg}`)
      process.exit(1)
    }
  } else {
    console.error(
      `${what} not found at ${path}. Install it with: sudo apt-get update && sudo apt-get install -y ${pkg} (or set ${variable}).`,
    )
    process.exit(1)
  }
}
const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
})
process.exit(r.status ?? 1)
