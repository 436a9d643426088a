#!/usr/bin/env node
// The production server compiled to JavaScript: server/index.ts and what it imports from server/,
// engine/ and schemas/ bundled into one ES module, dist/app/server.mjs; packages stay imports of
// node_modules. `npm start` and the e2e suite run it with plain `node`: the TypeScript loader (tsx)
// costs ~50 MB of resident memory in a running server (docs/decisions/0540). `npm run dev` keeps tsx.
//   node tools/build-server.mjs
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = join(import.meta.dirname, '..')
/** Where this run writes: the build under way (dist-<id>, beside `dist`: the same depth), or dist. */
const OUT_DIR = join(ROOT, process.env.FW_BUILD_DIR || 'dist', 'app')
/** The compiled server of the current build; its `main()` starts it, and running it as a script does the same. */
export const SERVER_BUNDLE = join(ROOT, 'dist', 'app', 'server.mjs')
/** What the bundle is made of: it is stale when a file in these folders is newer. */
export const SERVER_SOURCES = ['server', 'engine', 'schemas'].map((d) => join(ROOT, d))

/**
 * The bundle runs from dist/app/, so a module's own folder (`import.meta.dirname`: migrations next to
 * the store, the project root above server/) is rewritten to its source folder, relative to the bundle.
 */
const sourceDirname = {
  name: 'funnelworks:source-dirname',
  transform: {
    filter: { code: 'import.meta.dirname' },
    handler(code, id) {
      const fromBundle = relative(OUT_DIR, dirname(id)).split('\\').join('/')
      // Same lines, so the source map stays right (`map: null`: the code did not move).
      return {
        map: null,
        code: code.replaceAll(
          'import.meta.dirname',
          `(import.meta.dirname + ${JSON.stringify(`/${fromBundle}`)})`,
        ),
      }
    },
  },
}

async function buildServer() {
  // Imported here: `npm start` reads this module's paths and must not load the bundler with them.
  const { rolldown } = await import('rolldown')
  const bundle = await rolldown({
    input: join(ROOT, 'server', 'index.ts'),
    platform: 'node',
    // Packages (and node: builtins) are loaded from node_modules at run time, as with tsx.
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
    plugins: [sourceDirname],
    logLevel: 'warn',
  })
  try {
    await bundle.write({ dir: OUT_DIR, format: 'esm', entryFileNames: 'server.mjs', sourcemap: true })
  } finally {
    await bundle.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer()
  console.log(`server compiled to ${relative(ROOT, join(OUT_DIR, 'server.mjs'))}`)
}
