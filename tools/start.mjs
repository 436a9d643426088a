#!/usr/bin/env node
// npm start: builds the production bundle when none is present (or it is older than the sources),
// then starts the server compiled to JavaScript (tools/build-server.mjs). A build goes into a folder
// of its own and `dist` is switched to it when it is whole (tools/build.mjs, docs/decisions/0332), so
// two `npm start` at once, or one beside a running server, never write into a build in use. Only the
// server is compiled again when only its sources changed.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { build } from './build.mjs'
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

try {
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
    build()
  } else if (stale(SERVER_BUNDLE, SERVER_SOURCES)) build({ serverOnly: true })
} catch (e) {
  console.error(String(e instanceof Error ? e.message : e))
  process.exit(1)
}
process.env.NODE_ENV ??= 'production'
// Run the server in this process (so SIGTERM reaches it directly). Imported through `dist`, the module
// is its build folder's (Node resolves the link): this server keeps that build when dist moves on.
const { main } = await import(SERVER_BUNDLE)
await main()
