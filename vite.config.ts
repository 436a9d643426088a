import react from '@vitejs/plugin-react'
import vike from 'vike/plugin'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react(), vike()],
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
                (/[\\/](ui|engine)[\\/].*\.tsx?$/.test(id) || /node_modules[\\/]xstate[\\/]/.test(id)) &&
                !/build-check-(actor|machine)/.test(id),
              minShareCount: 3,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
})
