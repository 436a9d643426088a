#!/usr/bin/env node
// npm run build: the production build in a folder of its own, dist-<id>/ (Vike's client/ and server/,
// the compiled server app/), then `dist` is switched to it in one step (a symlink renamed over the
// old one). A server already running keeps the build it started from (it serves the folder its own
// code is in), two builds at once never write into the same folder, and `dist` always names a whole
// build (docs/decisions/0332). The last BUILDS_KEPT builds stay; older ones are removed.
//   node tools/build.mjs [--server-only]
// --server-only: the client and Vike's server output are copied from the current build and only the
// server is compiled again (npm start does this when only server/ changed).
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  cpSync,
  existsSync,
  lstatSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = join(import.meta.dirname, '..')
/** What servers, tests and `npm start` use: a symlink to the newest whole build. */
export const DIST = join(ROOT, 'dist')
/** A build folder's name: `dist-` and its id. */
export const BUILD_PREFIX = 'dist-'
/** Written last into a build folder: the build is whole. */
export const BUILD_RECORD = 'build.json'
/** Builds kept in the checkout (the newest; the one `dist` names is always among them). */
export const BUILDS_KEPT = 3

function run(args, env) {
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited with ${r.status}`)
}

/** The builds in the checkout that are whole, newest first. */
function wholeBuilds() {
  return readdirSync(ROOT)
    .filter((n) => n.startsWith(BUILD_PREFIX) && existsSync(join(ROOT, n, BUILD_RECORD)))
    .map((n) => ({ name: n, at: statSync(join(ROOT, n, BUILD_RECORD)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
}

/** Points `dist` at `name` in one rename; a `dist` folder of an older checkout becomes a build. */
function switchTo(name) {
  const st = existsSync(DIST) || isLink(DIST) ? lstatSync(DIST) : null
  if (st && !st.isSymbolicLink()) {
    const legacy = `${BUILD_PREFIX}legacy-${Date.now().toString(36)}`
    renameSync(DIST, join(ROOT, legacy))
    writeFileSync(join(ROOT, legacy, BUILD_RECORD), `${JSON.stringify({ id: legacy })}\n`)
  }
  const tmp = join(ROOT, `.dist-switch-${process.pid}-${randomBytes(3).toString('hex')}`)
  symlinkSync(name, tmp)
  renameSync(tmp, DIST)
}

function isLink(path) {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** Removes whole builds beyond the newest BUILDS_KEPT, never the one `dist` names. */
function prune() {
  const current = existsSync(DIST) ? basename(realpathSync(DIST)) : null
  for (const { name } of wholeBuilds().slice(BUILDS_KEPT))
    if (name !== current) rmSync(join(ROOT, name), { recursive: true, force: true })
}

/** Builds into a new dist-<id>, switches `dist` to it and returns its folder. */
export function build({ serverOnly = false } = {}) {
  const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
  const name = `${BUILD_PREFIX}${id}`
  const dir = join(ROOT, name)
  try {
    if (serverOnly && existsSync(join(DIST, 'server', 'entry.mjs'))) {
      const from = realpathSync(DIST)
      for (const part of readdirSync(from))
        if (part !== 'app' && part !== BUILD_RECORD)
          cpSync(join(from, part), join(dir, part), { recursive: true })
    } else {
      // Vite's build.outDir (vite.config.ts): Vike writes client/ and server/ under it.
      run([join(ROOT, 'node_modules', 'vike', 'bin.js'), 'build'], {
        NODE_ENV: 'production',
        FW_BUILD_DIR: name,
      })
    }
    // In a process of its own: the bundler's memory must not stay in `npm start`'s server.
    run([join(ROOT, 'tools', 'build-server.mjs')], { FW_BUILD_DIR: name })
    writeFileSync(join(dir, BUILD_RECORD), `${JSON.stringify({ id, builtAt: new Date().toISOString() })}\n`)
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
  switchTo(name)
  prune()
  return dir
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const dir = build({ serverOnly: process.argv.includes('--server-only') })
    console.log(`built ${basename(dir)}; dist now names it`)
  } catch (e) {
    console.error(String(e instanceof Error ? e.message : e))
    process.exit(1)
  }
}
