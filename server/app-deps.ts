import type { Middleware } from 'koa'
import type { ServerConfig } from './config'
import type { ContentServices } from './content/content-services'
import type { SnapshotStore } from './content/snapshot-store'
import type { RateLimiter } from './http/rate-limiter'
import type { Metrics } from './metrics/metrics'
import type { OpsChannel } from './runtime/ops-channel'
import type { Store } from './store/open-store'
import type { PasswordHasher } from './store/password'

/** What createApp() is built from; server/index.ts supplies the real ones, tests their own. */
export interface AppDeps {
  config: ServerConfig
  snapshots: SnapshotStore
  /** Serves built client assets (production) or Vite's dev middleware (development). */
  assets?: Middleware
  /** The data store (events, visitor records, staff sessions); APIs that need it answer 503 without. */
  store?: Store
  /** Checks staff passwords within the hash-time budget; the sign-in API makes the default one. */
  passwordHasher?: PasswordHasher
  /** The operator channel: /api/_ops/* answer only requests it carries (docs/decisions/0722). */
  opsChannel?: Pick<OpsChannel, 'carries'>
  /** Actual listening port, for brand-index links (set after listen). */
  getPort?: () => number
  /** True once the server is shutting down: every answer then closes its connection. */
  closing?: () => boolean
  /** The published content commit being served (CONTENT_SOURCE=git), for /healthz. */
  liveCommit?: () => string | null
  /** The control center's content services (branches, drafts, publish), when the repository is open. */
  content?: ContentServices
  /** Counts the visitors (answer keys) each client address creates (docs/decisions/0810); createApp makes it when absent. */
  newVisitors?: RateLimiter
  /** What /metrics reports (METRICS_PORT); absent, nothing is counted (docs/decisions/0710). */
  metrics?: Metrics
}
