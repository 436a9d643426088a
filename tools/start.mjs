#!/usr/bin/env node
// npm start: builds the production bundle when none is present (or it is older than the sources),
// then starts the server. The build is skipped when dist/ is up to date.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const entry = join(root, 'dist', 'server', 'entry.mjs')

function newestMtime(dir) {
  let newest = 0
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, name.name)
    if (name.isDirectory()) newest = Math.max(newest, newestMtime(full))
    else newest = Math.max(newest, statSync(full).mtimeMs)
  }
  return newest
}

const stale =
  !existsSync(entry) || ['ui', 'engine'].some((d) => newestMtime(join(root, d)) > statSync(entry).mtimeMs)
if (stale) {
  console.log(
    existsSync(entry)
      ? 'Sources changed since the last build; building…'
      : 'No production build yet; building…',
  )
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vike', 'bin.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
process.env.NODE_ENV ??= 'production'
// Run the server in this process (so SIGTERM reaches it directly), with tsx compiling TypeScript.
const { register } = await import('tsx/esm/api')
register()
const { main } = await import('../server/index.ts')
await main()
