/**
 * Server configuration from environment variables, checked at start. Every variable is listed in the
 * README; a wrong value stops the server with a message naming the variable.
 */
import { resolve } from 'node:path'
import {
  MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
  MARKETPLACE_TIMEOUT_DEFAULT_MS,
  MARKETPLACE_TIMEOUT_MAX_MS,
} from '../engine/constants'

export interface ServerConfig {
  port: number
  host: string
  mode: 'production' | 'development'
  projectRoot: string
  definitionsDir: string
  dataDir: string
  databaseUrl: string | null
  /** Show the brand index on a bare localhost / 127.0.0.1 host. */
  brandIndex: boolean
  tagManagerUrl: string
  adScriptUrl: string | null
  /** Proxies whose X-Forwarded-For is trusted (IPs); empty trusts none. */
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
  shutdownTimeoutMs: number
  logLevel: 'debug' | 'info' | 'warn' | 'error'
  /** What the site serves: the published git commit (production default) or the working tree (dev default). */
  contentSource: 'git' | 'worktree'
  /** The bare content repository the server owns (docs/decisions/0600). */
  contentGitDir: string
  /** Shared git remote of the content repository, for several instances; null for one. */
  contentRemote: string | null
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

function str(env: Env, name: string): string | undefined {
  const v = env[name]
  return v === undefined || v.trim() === '' ? undefined : v.trim()
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const v = str(env, name)
  if (v === undefined) return fallback
  if (!/^\d+$/.test(v)) throw new ConfigError(name, `must be a whole number, got "${v}"`)
  const n = Number(v)
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`)
  return n
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const v = str(env, name)?.toLowerCase()
  if (v === undefined) return fallback
  if (['1', 'true', 'on', 'yes'].includes(v)) return true
  if (['0', 'false', 'off', 'no'].includes(v)) return false
  throw new ConfigError(name, `must be on/off (or true/false, 1/0), got "${v}"`)
}

function url(
  env: Env,
  name: string,
  fallback: string | null,
  protocols = ['http:', 'https:'],
): string | null {
  const v = str(env, name)
  if (v === undefined) return fallback
  if (v === 'off') return null
  let u: URL
  try {
    u = new URL(v)
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${v}"`)
  }
  if (!protocols.includes(u.protocol))
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${u.protocol}"`)
  return v.replace(/\/$/, '')
}

/** GEOIP_MMDB: comma-separated .mmdb paths, `off`, or unset for the database shipped with the app. */
function geoipList(env: Env): string[] | null {
  const v = str(env, 'GEOIP_MMDB')
  if (v === undefined) return null
  if (v === 'off') return []
  return v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => resolve(PROJECT_ROOT, p))
}

/** CONTENT_SOURCE, CONTENT_GIT_DIR, CONTENT_REMOTE (docs/decisions/0600, 0603). */
function contentConfig(
  env: Env,
  nodeEnv: string,
  databaseUrl: string | null,
): Pick<ServerConfig, 'contentSource' | 'contentGitDir' | 'contentRemote'> {
  const source = str(env, 'CONTENT_SOURCE') ?? (nodeEnv === 'development' ? 'worktree' : 'git')
  if (source !== 'git' && source !== 'worktree')
    throw new ConfigError('CONTENT_SOURCE', `must be git or worktree, got "${source}"`)
  const dataDir = resolve(PROJECT_ROOT, str(env, 'DATA_DIR') ?? '.data')
  const remote = str(env, 'CONTENT_REMOTE') ?? null
  if (remote && !databaseUrl)
    throw new ConfigError(
      'CONTENT_REMOTE',
      'several instances need PostgreSQL (set DATABASE_URL); PGlite is single-instance (docs/decisions/0300)',
    )
  return {
    contentSource: source,
    contentGitDir: resolve(PROJECT_ROOT, str(env, 'CONTENT_GIT_DIR') ?? resolve(dataDir, 'content.git')),
    // A path is resolved from the project root; anything with a scheme (or user@host:) is a git URL.
    contentRemote:
      remote && !/^[a-z][a-z0-9+.-]*:\/\/|^[^/]+@[^/]+:/i.test(remote)
        ? resolve(PROJECT_ROOT, remote)
        : remote,
  }
}

export function loadConfig(env: Env = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'production'
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    throw new ConfigError('NODE_ENV', `must be production, development or test, got "${nodeEnv}"`)
  }
  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info') as ServerConfig['logLevel']
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel))
    throw new ConfigError('LOG_LEVEL', `must be debug, info, warn or error, got "${logLevel}"`)
  const databaseUrl = url(env, 'DATABASE_URL', null, ['postgres:', 'postgresql:'])
  const trusted = (str(env, 'TRUSTED_PROXIES') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const ip of trusted) {
    if (!/^[0-9a-fA-F.:]+$/.test(ip)) throw new ConfigError('TRUSTED_PROXIES', `"${ip}" is not an IP address`)
  }
  const config: ServerConfig = {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    mode: nodeEnv === 'development' ? 'development' : 'production',
    projectRoot: PROJECT_ROOT,
    definitionsDir: resolve(PROJECT_ROOT, str(env, 'DEFINITIONS_DIR') ?? 'definitions'),
    dataDir: resolve(PROJECT_ROOT, str(env, 'DATA_DIR') ?? '.data'),
    databaseUrl,
    brandIndex: bool(env, 'BRAND_INDEX', true),
    tagManagerUrl: url(env, 'TAG_MANAGER_URL', 'https://www.googletagmanager.com')!,
    adScriptUrl: url(env, 'AD_SCRIPT_URL', 'https://insurance.mediaalpha.com/js/serve.js'),
    trustedProxies: trusted,
    mediaalphaBaseUrl: url(env, 'MEDIAALPHA_BASE_URL', null),
    mediaalphaApiKey: str(env, 'MEDIAALPHA_API_KEY') ?? null,
    mediaalphaTimeoutMs: int(
      env,
      'MEDIAALPHA_TIMEOUT_MS',
      MARKETPLACE_TIMEOUT_DEFAULT_MS,
      50,
      MARKETPLACE_TIMEOUT_MAX_MS,
    ),
    mediaalphaRateLimitPerMinute: int(
      env,
      'MEDIAALPHA_RATE_LIMIT',
      MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
      1,
      100_000,
    ),
    geoipDatabases: geoipList(env),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    logLevel,
    ...contentConfig(env, nodeEnv, databaseUrl),
  }
  return { ...config, ...overrides }
}

/** The variables, for the README and `--help`. */
export const CONFIG_VARIABLES: readonly [string, string][] = [
  ['PORT', 'port to listen on (default 3000; 0 picks a free port)'],
  ['HOST', 'address to bind (default 0.0.0.0)'],
  ['NODE_ENV', 'production (default) serves the build; development runs Vite with hot reload'],
  ['DEFINITIONS_DIR', 'folder of the JSON definitions (default definitions)'],
  ['DATA_DIR', 'embedded PGlite data folder (default .data)'],
  ['DATABASE_URL', 'postgres:// URL; when set, PostgreSQL is used instead of PGlite'],
  ['BRAND_INDEX', 'on/off: brand index on bare localhost (default on)'],
  ['TAG_MANAGER_URL', 'tag manager origin (default https://www.googletagmanager.com)'],
  [
    'AD_SCRIPT_URL',
    'insurance ad-serving script URL, or off (default https://insurance.mediaalpha.com/js/serve.js)',
  ],
  ['TRUSTED_PROXIES', 'comma-separated proxy IPs whose X-Forwarded-For is trusted (default none)'],
  ['MEDIAALPHA_BASE_URL', 'ad marketplace base URL; unset answers 503 on the phone endpoints'],
  ['MEDIAALPHA_API_KEY', 'ad marketplace credential, sent as a bearer token (default none)'],
  ['MEDIAALPHA_TIMEOUT_MS', 'ad marketplace timeout, 50–3000 (default 2500)'],
  ['MEDIAALPHA_RATE_LIMIT', 'phone requests per visitor IP and endpoint per minute before 429 (default 30)'],
  [
    'GEOIP_MMDB',
    'comma-separated .mmdb files for the IP lookup, or off (default: the bundled GeoLite2 city data)',
  ],
  ['SHUTDOWN_TIMEOUT_MS', 'how long in-flight requests may take on SIGTERM (default 10000)'],
  ['LOG_LEVEL', 'debug, info (default), warn or error'],
  [
    'CONTENT_SOURCE',
    'git (production default): serve the published commit of the content repository; worktree (development default): serve definitions/ as files',
  ],
  ['CONTENT_GIT_DIR', 'the bare content repository the server owns (default DATA_DIR/content.git)'],
  [
    'CONTENT_REMOTE',
    'git URL or bare repository path shared by several instances (needs DATABASE_URL; default none)',
  ],
]
