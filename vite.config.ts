import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig, type Plugin } from 'vite'
import { publicModules, reactModules } from './tools/public-modules'

const ROOT = dirname(fileURLToPath(import.meta.url))
/** What a public page can load (tools/public-modules.ts): the only modules the shell may take. */
const PUBLIC = publicModules(ROOT)
/** Of those, the ones that load React: never in the shell, which static pages load without React (0520). */
const REACT = reactModules(PUBLIC)
/** The control center's screens share code among themselves (and the splitter with the style guide). */
const STAFF_ONLY = /control-center|[\\/]Splitter\.tsx$|[\\/]splitter[\\/]/
const ours = (id: string) => (/[\\/](ui|engine)[\\/].*\.tsx?$/.test(id) ? id.split('?')[0] : null)

/**
 * Vike adds a code-splitting group for stylesheets whose `name` is a function; Rolldown then warns, on
 * every build and for each environment, that such a group needs a `debugName`. This gives it one.
 * Runs after Vike's own `configResolved` (same `post` order, listed later).
 */
function nameVikeCssGroup(): Plugin {
  return {
    name: 'funnelworks:name-vike-css-group',
    enforce: 'post',
    configResolved: {
      order: 'post',
      handler(config) {
        const outputs = [config.build.rolldownOptions?.output ?? []].flat()
        for (const output of outputs) {
          const groups = typeof output.codeSplitting === 'object' ? (output.codeSplitting.groups ?? []) : []
          for (const group of groups)
            if (typeof group.name === 'function' && !group.debugName) group.debugName = 'vike-css'
        }
      },
    },
  }
}

export default defineConfig({
  plugins: [react(), vike(), nameVikeCssGroup()],
  publicDir: 'ui/public',
  build: {
    // tools/build.mjs builds into a folder of its own (dist-<id>) and then switches `dist` to it
    // (docs/decisions/0332); a plain `vike build` writes dist/.
    outDir: process.env.FW_BUILD_DIR || 'dist',
    target: 'es2022',
    sourcemap: process.env.FW_SOURCEMAP === '1',
    rolldownOptions: {
      output: {
        // Fewer, larger chunks on every public page: gzip compresses one file better than ten small
        // ones (docs/decisions/0507). `shell` takes our framework-free code shared by three or more
        // pages (the runtime, tracking, the phone line), xstate and the
        // bundler's helpers: everything a static page loads, and no React (docs/decisions/0520).
        // `view` takes React code shared by three or more hydrated pages (a funnel step hydrates
        // nothing: docs/decisions/0524). Neither takes what its
        // modules import (that would pull each page's stylesheet into one `shell.css` that Vike then
        // links twice under two names). Lazily imported code (bot detection, the build check) stays
        // in its own chunk. Only modules a public page can reach join either (docs/decisions/0604).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            {
              name: 'shell',
              test: (id) => {
                if (/node_modules[\\/]xstate[\\/]|vite[\\/]preload-helper|rolldown[\\/]runtime/.test(id))
                  return true
                const file = ours(id)
                return (
                  !!file &&
                  PUBLIC.has(file) &&
                  !REACT.has(file) &&
                  // The islands' entry, the loading bar and the funnel's islands stay out: pages that do
                  // not run them never load them.
                  !/build-check-(actor|machine)|[\\/]ui[\\/]islands[\\/](loading-bar-island|funnel-[\w-]+|continue-elsewhere-island)\.ts$/.test(
                    file,
                  ) &&
                  !STAFF_ONLY.test(file)
                )
              },
              minShareCount: 3,
              includeDependenciesRecursively: false,
            },
            {
              name: 'view',
              test: (id) => {
                const file = ours(id)
                return !!file && PUBLIC.has(file) && REACT.has(file) && !STAFF_ONLY.test(file)
              },
              minShareCount: 3,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
})
