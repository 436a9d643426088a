import type { Resolution } from '../engine/render/resolution'

declare global {
  namespace Vike {
    interface PageContext {
      /** Set by the Koa server for every render (server/render/vike-render.ts) and passed to the client. */
      resolution?: Resolution
      Page?: () => React.ReactNode
    }
  }
}
