import type { Config } from 'vike/types'

// Server routing: every page is rendered by Koa + Vike and hydrated; funnel steps change the URL
// in the browser through the funnel machine.
export default {
  passToClient: ['resolution'],
  clientRouting: false,
} satisfies Config
