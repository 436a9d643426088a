#!/usr/bin/env node
// npm start: builds the production bundle when none is present (or it is older than the sources),
// then starts the server compiled to JavaScript (tools/build-server.mjs). Each build is skipped when
// its output is up to date.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { SERVER_BUNDLE, SERVER_SOURCES } from './build-server.mjs'

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

/** Missing, or older than a file in one of `sources`. */
const stale = (output, sources) =>
  !existsSync(output) || sources.some((d) => newestMtime(d) > statSync(output).mtimeMs)

if (
  stale(
    entry,
    ['ui', 'engine'].map((d) => join(root, d)),
  )
) {
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
if (stale(SERVER_BUNDLE, SERVER_SOURCES)) {
  // In a process of its own: the bundler's memory must not stay in the server's.
  const r = spawnSync(process.execPath, [join(root, 'tools', 'build-server.mjs')], {
    cwd: root,
    stdio: 'inherit',
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
process.env.NODE_ENV ??= 'production'
// Run the server in this process (so SIGTERM reaches it directly).
const { main } = await import(SERVER_BUNDLE)
await main()
