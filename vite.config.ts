import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig, type Plugin } from 'vite'
import { publicModules } from './tools/public-modules'

/** What a public page can load (tools/public-modules.ts): the only modules the shell may take. */
const PUBLIC = publicModules(dirname(fileURLToPath(import.meta.url)))

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
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Fewer, larger chunks on every public page: gzip compresses one file better than ten small
        // ones (docs/decisions/0507). `shell` takes our code shared by three or more pages, and xstate;
        // not what those modules import (that would pull each page's stylesheet into one `shell.css`
        // that Vike then links twice under two names). Lazily imported code (bot detection, the
        // build check) stays in its own chunk.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|vite[\\/]preload-helper|rolldown[\\/]runtime/,
            },
            {
              name: 'shell',
              test: (id) =>
                ((/[\\/](ui|engine)[\\/].*\.tsx?$/.test(id) && PUBLIC.has(id.split('?')[0])) ||
                  /node_modules[\\/]xstate[\\/]/.test(id)) &&
                !/build-check-(actor|machine)/.test(id) &&
                // The control center's screens share code among themselves (and the splitter with the
                // style guide): it must never join the shell every public page loads (docs/decisions/0604).
                !/control-center|[\\/]Splitter\.tsx$|[\\/]splitter[\\/]/.test(id),
              minShareCount: 3,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
})
