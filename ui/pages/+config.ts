import type { Config } from 'vike/types'

// Server routing: every page is rendered by Koa + Vike; funnel steps change the URL in the browser
// through the funnel machine. Vike's client runtime is not loaded: each view's +client.ts hydrates
// the page itself from the resolution script written by +onRenderHtml (docs/decisions/0507).
export default {
  clientRouting: false,
  clientHooks: false,
} satisfies Config
