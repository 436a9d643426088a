/**
 * Server configuration: one declarative table of environment variables (name, default, parser,
 * description). The server reads it, a wrong value stops the server with a message naming the
 * variable, and the README's configuration table is checked against it (server/config.test.ts).
 */

import { resolve } from 'node:path'
import {
  ANSWERS_RETENTION_DEFAULT_DAYS,
  MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
  MARKETPLACE_TIMEOUT_DEFAULT_MS,
  MARKETPLACE_TIMEOUT_MAX_MS,
  NEW_VISITORS_PER_WINDOW,
  NEW_VISITORS_WINDOW_MS,
  PUBLIC_HTML_S_MAXAGE_S,
  PUBLIC_HTML_STALE_WHILE_REVALIDATE_S,
  RESUME_LINK_DEFAULT_DAYS,
  RESUME_LINK_MAX_DAYS,
} from '../engine/constants'
import { GATE_TIME_BUDGET_MS } from '../engine/control-center/gates/gate-constants'
import { DEFAULT_PAGE_CACHE_BYTES } from './geo/paged-file'

export interface ServerConfig {
  port: number
  host: string
  /** Port of the separate /metrics listener (bound to HOST); null: no metrics (docs/decisions/0710). */
  metricsPort: number | null
  mode: 'production' | 'development'
  projectRoot: string
  definitionsDir: string
  dataDir: string
  databaseUrl: string | null
  /** Events older than this many days are dropped, a whole monthly partition at a time; null keeps all. */
  eventsRetentionDays?: number | null
  /** Funnel answers are deleted this many days after their last change (docs/decisions/0810). */
  answersRetentionDays?: number
  /** New visitors (answer keys) one client address may create per NEW_VISITORS_WINDOW_MS (0810). */
  newVisitorLimit?: number
  /** Show the brand index on a bare localhost / 127.0.0.1 host. */
  brandIndex: boolean
  tagManagerUrl: string
  adScriptUrl: string | null
  /** Proxies whose X-Forwarded-* headers are believed (IPs); empty trusts none. */
  trustedProxies: string[]
  mediaalphaBaseUrl: string | null
  /** Credential sent to the ad marketplace as a bearer token. */
  mediaalphaApiKey?: string | null
  /** Upstream timeout for the ad marketplace (at most 3000 ms). */
  mediaalphaTimeoutMs?: number
  /** Phone requests per visitor (IP) and endpoint per minute; more answer 429. */
  mediaalphaRateLimitPerMinute?: number
  /** .mmdb files for the IP lookup; empty turns the database off (headers of trusted proxies still count). */
  geoipDatabases?: string[] | null
  /** Memory kept of each .mmdb file for lookups (KB of 4 KB pages; the rest stays on disk). */
  geoipCacheKb?: number
  shutdownTimeoutMs: number
  /** Longest a client may take to send a request's headers. */
  headersTimeoutMs: number
  /** Longest a client may take to send a whole request (headers and body). */
  requestTimeoutMs: number
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number
  /** Open connections at most; more are refused at once. */
  maxConnections: number
  /** Keep rendered pages in memory (production); off renders every request (for measuring). */
  htmlCache: boolean
  /** How long a shared cache in front may keep a public page, and serve it stale while refreshing (s). */
  sharedMaxAgeS: number
  sharedStaleS: number
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  /** What the site serves: the published git commit (production default) or the working tree (dev default). */
  contentSource: 'git' | 'worktree'
  /** The bare content repository the server owns (docs/decisions/0600). */
  contentGitDir: string
  /** Shared git remote of the content repository, for several instances; null for one. */
  contentRemote: string | null
  /** Key that signs preview grants; null: one kept in DATA_DIR/preview.key (several instances must share one). */
  previewSecret: string | null
  /** How many days a resume link works (RESUME_LINK_DAYS; docs/decisions/0232). */
  resumeLinkDays: number
  /** Publishing needs an approval of the exact head by another publisher (CONTROL-CENTER §1.2). */
  requireApproval: boolean
  /** Each publish gate's time budget per funnel (CC_GATE_BUDGET_MS). */
  gateBudgetMs: number
  /** OpenAI-compatible text-generation endpoint for the content factory; null: runs are off. */
  textgenBaseUrl: string | null
  textgenApiKey: string | null
  textgenModel: string
  textgenTimeoutMs: number
  textgenMaxConcurrency: number
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`)
  }
}

type Env = Record<string, string | undefined>

const PROJECT_ROOT = resolve(import.meta.dirname, '..')

/** One environment variable: how it is read and how the README describes it. */
export interface ConfigVariable<K extends keyof ServerConfig = keyof ServerConfig> {
  name: string
  key: K
  /** Markdown, as in the README's table (with the default). */
  description: string
  /**
   * The value for the trimmed text (undefined when unset or blank), given the variables read before it
   * (in table order); throws a message on a bad one.
   */
  parse: (value: string | undefined, read: Partial<ServerConfig>) => ServerConfig[K]
}

const variable = <K extends keyof ServerConfig>(v: ConfigVariable<K>): ConfigVariable =>
  v as unknown as ConfigVariable

class BadValue extends Error {}

function int(fallback: number, min: number, max: number) {
  return (v: string | undefined): number => {
    if (v === undefined) return fallback
    if (!/^\d+$/.test(v)) throw new BadValue(`must be a whole number, got "${v}"`)
    const n = Number(v)
    if (n < min || n > max) throw new BadValue(`must be between ${min} and ${max}, got ${n}`)
    return n
  }
}

function bool(fallback: boolean) {
  return (raw: string | undefined): boolean => {
    const v = raw?.toLowerCase()
    if (v === undefined) return fallback
    if (['1', 'true', 'on', 'yes'].includes(v)) return true
    if (['0', 'false', 'off', 'no'].includes(v)) return false
    throw new BadValue(`must be on/off (or true/false, 1/0), got "${v}"`)
  }
}

function url<F extends string | null>(fallback: F, protocols = ['http:', 'https:']) {
  return (v: string | undefined): string | F => {
    if (v === undefined) return fallback
    if (v === 'off') return null as F
    let u: URL
    try {
      u = new URL(v)
    } catch {
      throw new BadValue(`must be an absolute URL, got "${v}"`)
    }
    if (!protocols.includes(u.protocol))
      throw new BadValue(`must use ${protocols.join(' or ')}, got "${u.protocol}"`)
    return v.replace(/\/$/, '')
  }
}

function oneOf<T extends string>(fallback: T, values: readonly T[]) {
  return (v: string | undefined): T => {
    const value = (v ?? fallback) as T
    if (!values.includes(value))
      throw new BadValue(`must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}, got "${value}"`)
    return value
  }
}

const folder = (fallback: string) => (v: string | undefined) => resolve(PROJECT_ROOT, v ?? fallback)

/** The environment variables, in README order. */
export const CONFIG: readonly ConfigVariable[] = [
  variable({
    name: 'PORT',
    key: 'port',
    parse: int(3000, 0, 65535),
    description: 'port to listen on (default 3000; 0 picks a free port)',
  }),
  variable({
    name: 'HOST',
    key: 'host',
    parse: (v) => v ?? '0.0.0.0',
    description: 'address to bind (default 0.0.0.0)',
  }),
  variable({
    name: 'METRICS_PORT',
    key: 'metricsPort',
    parse: (v, read) => {
      if (v === undefined || v === 'off') return null
      const port = int(0, 0, 65535)(v)
      if (port !== 0 && port === read.port) throw new BadValue(`must differ from PORT (${port})`)
      return port
    },
    description:
      'port of a separate listener answering `GET /metrics` in the Prometheus text format, on `HOST`; never served on the site port or to a brand host (default off)',
  }),
  variable({
    name: 'NODE_ENV',
    key: 'mode',
    parse: (v) =>
      oneOf('production', ['production', 'development', 'test'])(v) === 'development'
        ? 'development'
        : 'production',
    description:
      '`production` (default) serves the build; `development` runs Vite with hot reload (`test` behaves as production)',
  }),
  variable({
    name: 'DEFINITIONS_DIR',
    key: 'definitionsDir',
    parse: folder('definitions'),
    description: 'folder of the JSON definitions (default `definitions`)',
  }),
  variable({
    name: 'DATA_DIR',
    key: 'dataDir',
    parse: folder('.data'),
    description: 'embedded PGlite data folder (default `.data`)',
  }),
  variable({
    name: 'DATABASE_URL',
    key: 'databaseUrl',
    parse: url(null, ['postgres:', 'postgresql:']),
    description: '`postgres://` URL; when set, PostgreSQL is used instead of PGlite',
  }),
  variable({
    name: 'EVENTS_RETENTION_DAYS',
    key: 'eventsRetentionDays',
    parse: (v) => (v === undefined || v === 'off' ? null : int(0, 1, 36_500)(v)),
    description:
      'days events are kept; older monthly partitions are dropped whole, with an audit entry (default off: kept)',
  }),
  variable({
    name: 'ANSWERS_RETENTION_DAYS',
    key: 'answersRetentionDays',
    parse: int(ANSWERS_RETENTION_DEFAULT_DAYS, 1, ANSWERS_RETENTION_DEFAULT_DAYS),
    description: `days funnel answers are kept after their last change; older ones are deleted hourly, with an audit entry (default ${ANSWERS_RETENTION_DEFAULT_DAYS}, at most ${ANSWERS_RETENTION_DEFAULT_DAYS})`,
  }),
  variable({
    name: 'NEW_VISITOR_LIMIT',
    key: 'newVisitorLimit',
    parse: int(NEW_VISITORS_PER_WINDOW, 1, 1_000_000),
    description: `new visitors (funnel answer keys) one client address may create per ${NEW_VISITORS_WINDOW_MS / 60_000} minutes before \`429\` (default ${NEW_VISITORS_PER_WINDOW})`,
  }),
  variable({
    name: 'BRAND_INDEX',
    key: 'brandIndex',
    parse: bool(true),
    description:
      '`on`/`off`: the brand index on a bare `localhost` (default on; never shown on a real domain)',
  }),
  variable({
    name: 'TAG_MANAGER_URL',
    key: 'tagManagerUrl',
    parse: (v) => url('https://www.googletagmanager.com')(v) ?? 'https://www.googletagmanager.com',
    description: 'tag manager origin (default `https://www.googletagmanager.com`)',
  }),
  variable({
    name: 'AD_SCRIPT_URL',
    key: 'adScriptUrl',
    parse: url<string | null>('https://insurance.mediaalpha.com/js/serve.js'),
    description:
      'insurance ad-serving script URL, or `off` (default `https://insurance.mediaalpha.com/js/serve.js`)',
  }),
  variable({
    name: 'TRUSTED_PROXIES',
    key: 'trustedProxies',
    parse: (v) => {
      const list = (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      for (const ip of list)
        if (!/^[0-9a-fA-F.:]+$/.test(ip)) throw new BadValue(`"${ip}" is not an IP address`)
      return list
    },
    description:
      'comma-separated proxy IPs whose `X-Forwarded-For`, `-Host` and `-Proto` are believed (default none): client IP, host and protocol for rate limits, the IP lookup, absolute URLs and secure cookies',
  }),
  variable({
    name: 'MEDIAALPHA_BASE_URL',
    key: 'mediaalphaBaseUrl',
    parse: url(null),
    description: 'ad marketplace base URL; unset makes the phone endpoints answer 503',
  }),
  variable({
    name: 'MEDIAALPHA_API_KEY',
    key: 'mediaalphaApiKey',
    parse: (v) => v ?? null,
    description: 'ad marketplace credential, sent as `Authorization: Bearer …` (default none)',
  }),
  variable({
    name: 'MEDIAALPHA_TIMEOUT_MS',
    key: 'mediaalphaTimeoutMs',
    parse: int(MARKETPLACE_TIMEOUT_DEFAULT_MS, 50, MARKETPLACE_TIMEOUT_MAX_MS),
    description: `ad marketplace timeout in ms, 50–${MARKETPLACE_TIMEOUT_MAX_MS} (default ${MARKETPLACE_TIMEOUT_DEFAULT_MS})`,
  }),
  variable({
    name: 'MEDIAALPHA_RATE_LIMIT',
    key: 'mediaalphaRateLimitPerMinute',
    parse: int(MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE, 1, 100_000),
    description: `phone requests per visitor IP and endpoint per minute before \`429\` (default ${MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE})`,
  }),
  variable({
    name: 'GEOIP_MMDB',
    key: 'geoipDatabases',
    parse: (v) => {
      if (v === undefined) return null
      if (v === 'off') return []
      return v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => resolve(PROJECT_ROOT, p))
    },
    description:
      'comma-separated `.mmdb` files for the IP lookup, or `off` (default: bundled GeoLite2 city data)',
  }),
  variable({
    name: 'GEOIP_CACHE_KB',
    key: 'geoipCacheKb',
    parse: int(DEFAULT_PAGE_CACHE_BYTES / 1024, 16, 1_048_576),
    description: `KB of each \`.mmdb\` file kept in memory for lookups, 16–1048576 (default ${DEFAULT_PAGE_CACHE_BYTES / 1024}; the files are read from disk page by page)`,
  }),
  variable({
    name: 'SHUTDOWN_TIMEOUT_MS',
    key: 'shutdownTimeoutMs',
    parse: int(10_000, 0, 600_000),
    description: 'how long in-flight requests may finish on SIGTERM (default 10000)',
  }),
  variable({
    name: 'HEADERS_TIMEOUT_MS',
    key: 'headersTimeoutMs',
    parse: int(10_000, 1_000, 120_000),
    description: 'a client must send the request headers within this many ms, else 408 (default 10000)',
  }),
  variable({
    name: 'REQUEST_TIMEOUT_MS',
    key: 'requestTimeoutMs',
    parse: int(30_000, 1_000, 600_000),
    description:
      'a client must send the whole request (headers and body) within this many ms, else 408 (default 30000)',
  }),
  variable({
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    key: 'keepAliveTimeoutMs',
    parse: int(65_000, 1_000, 600_000),
    description:
      'an idle keep-alive connection closes after this many ms (default 65000, above common load balancers’ 60 s)',
  }),
  variable({
    name: 'MAX_CONNECTIONS',
    key: 'maxConnections',
    parse: int(2_000, 1, 1_000_000),
    description: 'open connections at most; more are refused at once (default 2000)',
  }),
  variable({
    name: 'LOG_LEVEL',
    key: 'logLevel',
    parse: oneOf('info', ['debug', 'info', 'warn', 'error'] as const),
    description: '`debug`, `info` (default), `warn`, `error`',
  }),
  variable({
    name: 'CONTENT_SOURCE',
    key: 'contentSource',
    parse: (v, read) =>
      oneOf(read.mode === 'development' ? 'worktree' : 'git', ['git', 'worktree'] as const)(v),
    description:
      '`git` (production default): serve the published commit of the content repository; `worktree` (development default): serve `definitions/` as files, following every saved edit (under `npm start` too; a broken edit is refused and the last valid version keeps serving)',
  }),
  variable({
    name: 'CONTENT_GIT_DIR',
    key: 'contentGitDir',
    parse: (v, read) =>
      resolve(PROJECT_ROOT, v ?? resolve(read.dataDir ?? resolve(PROJECT_ROOT, '.data'), 'content.git')),
    description: 'the bare content repository the server owns (default `DATA_DIR/content.git`)',
  }),
  variable({
    name: 'CONTENT_REMOTE',
    key: 'contentRemote',
    parse: (v, read) => {
      if (!v) return null
      if (!read.databaseUrl)
        throw new BadValue(
          'several instances need PostgreSQL (set DATABASE_URL); PGlite is single-instance (docs/decisions/0300)',
        )
      // A path is resolved from the project root; anything with a scheme (or user@host:) is a git URL.
      return /^[a-z][a-z0-9+.-]*:\/\/|^[^/]+@[^/]+:/i.test(v) ? v : resolve(PROJECT_ROOT, v)
    },
    description:
      'git URL or bare repository path shared by several instances (needs `DATABASE_URL`; default none)',
  }),
  variable({
    name: 'PREVIEW_SECRET',
    key: 'previewSecret',
    parse: (v) => {
      if (v === undefined) return null
      if (v.length < 32) throw new BadValue('must be at least 32 characters')
      return v
    },
    description:
      'key that signs control-center preview links, at least 32 characters (default: one generated into `DATA_DIR/preview.key`; several instances must share one)',
  }),
  variable({
    name: 'RESUME_LINK_DAYS',
    key: 'resumeLinkDays',
    parse: int(RESUME_LINK_DEFAULT_DAYS, 1, RESUME_LINK_MAX_DAYS),
    description: `days a "continue on another device" link works, 1 to ${RESUME_LINK_MAX_DAYS} (default ${RESUME_LINK_DEFAULT_DAYS}); it also ends when its funnel is finished or started over`,
  }),
  variable({
    name: 'HTML_CACHE',
    key: 'htmlCache',
    parse: bool(true),
    description:
      '`on`/`off`: keep rendered pages in memory and answer repeats before the middleware chain (production; default on)',
  }),
  variable({
    name: 'SHARED_MAX_AGE_S',
    key: 'sharedMaxAgeS',
    parse: int(PUBLIC_HTML_S_MAXAGE_S, 0, 86_400),
    description: `a cache in front may keep a public page this many seconds (\`s-maxage\`, default ${PUBLIC_HTML_S_MAXAGE_S})`,
  }),
  variable({
    name: 'SHARED_STALE_S',
    key: 'sharedStaleS',
    parse: int(PUBLIC_HTML_STALE_WHILE_REVALIDATE_S, 0, 86_400),
    description: `…and serve it stale this many seconds more while it refreshes it (\`stale-while-revalidate\`, default ${PUBLIC_HTML_STALE_WHILE_REVALIDATE_S})`,
  }),
  variable({
    name: 'CC_REQUIRE_APPROVAL',
    key: 'requireApproval',
    parse: bool(false),
    description:
      '`on`/`off`: publishing a branch needs an approval of its exact head by a publisher other than its last author (default off)',
  }),
  variable({
    name: 'CC_GATE_BUDGET_MS',
    key: 'gateBudgetMs',
    parse: (v) => {
      if (v === undefined) return GATE_TIME_BUDGET_MS
      if (!/^\d+$/.test(v)) throw new BadValue('must be a whole number of milliseconds, e.g. 3000')
      return Number(v)
    },
    description: `the time a publish gate may spend on one funnel before it fails closed (default ${GATE_TIME_BUDGET_MS}; an admin may publish past a gate that ran out, with an audited reason)`,
  }),
  variable({
    name: 'TEXTGEN_BASE_URL',
    key: 'textgenBaseUrl',
    parse: (v) => {
      if (v === undefined) return null
      if (!/^https?:\/\/[^/]+/.test(v))
        throw new BadValue('must be an http(s) URL, e.g. https://api.example.com/v1')
      return v.replace(/\/+$/, '')
    },
    description:
      'OpenAI-compatible API base of the content factory, e.g. `https://api.openai.com/v1` (default none: content-factory runs are off)',
  }),
  variable({
    name: 'TEXTGEN_API_KEY',
    key: 'textgenApiKey',
    parse: (v) => v ?? null,
    description: 'bearer key for `TEXTGEN_BASE_URL` (default none)',
  }),
  variable({
    name: 'TEXTGEN_MODEL',
    key: 'textgenModel',
    parse: (v) => v ?? 'gpt-4o-mini',
    description: 'model name sent to `TEXTGEN_BASE_URL` (default `gpt-4o-mini`)',
  }),
  variable({
    name: 'TEXTGEN_TIMEOUT_MS',
    key: 'textgenTimeoutMs',
    parse: int(120_000, 1_000, 600_000),
    description: 'longest a content-factory generation may take, in ms (default 120000)',
  }),
  variable({
    name: 'TEXTGEN_MAX_CONCURRENCY',
    key: 'textgenMaxConcurrency',
    parse: int(2, 1, 16),
    description: 'generations running at once per server (default 2)',
  }),
]

/** Reads every variable of CONFIG; the first bad one throws a ConfigError naming it. */
export function loadConfig(env: Env = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const config: Record<string, unknown> = { projectRoot: PROJECT_ROOT }
  for (const v of CONFIG) {
    const raw = env[v.name]
    const text = raw === undefined || raw.trim() === '' ? undefined : raw.trim()
    try {
      config[v.key] = v.parse(text, config as Partial<ServerConfig>)
    } catch (e) {
      if (e instanceof BadValue) throw new ConfigError(v.name, e.message)
      throw e
    }
  }
  return { ...(config as unknown as ServerConfig), ...overrides }
}
