/**
 * Build identity and the files the client's build check reads (spec point 7, docs/decisions/0502):
 *   GET /builds/latest.json?t=…       → { id, timestamp }               (never cached)
 *   GET /builds/meta/{buildId}.json   → { id, timestamp, matcher, prerendered }
 *   GET {path}/_payload.json?{buildId} → the page's resolution, for client navigation
 * They are served dynamically: the build id combines the client bundle (hashed asset names) with the
 * snapshot id, so publishing content is a new build too and needs no build step.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { Context, Middleware } from 'koa'
import { BUILD_LATEST_PATH, BUILD_META_PREFIX, PAGE_PAYLOAD_SUFFIX } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'
import type { Snapshot } from '../../engine/snapshot/types'
import { hashString } from '../../engine/util/hash'
import type { SnapshotStore } from '../content/snapshot-store'

const BUILD_ID_LENGTH = 12
let clientHash = 'dev'
const firstSeen = new Map<string, number>()

/** Hashes the client bundle's file names (they carry content hashes); 'dev' under Vite. */
export function setClientBuild(clientDir: string | null): void {
  if (!clientDir) {
    clientHash = 'dev'
    return
  }
  const names: string[] = []
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, e.name)
      if (e.isDirectory()) walk(full)
      else names.push(relative(clientDir, full))
    }
  }
  try {
    walk(join(clientDir, 'assets'))
  } catch {
    // No assets folder: an empty bundle still gets a stable id.
  }
  clientHash = hashString(names.sort().join('\n'))
}

export function buildIdFor(snapshotId: string): string {
  const id = hashString(`${clientHash}:${snapshotId}`).slice(0, BUILD_ID_LENGTH)
  if (!firstSeen.has(id)) firstSeen.set(id, Date.now())
  return id
}

function timestampOf(id: string): number {
  return firstSeen.get(id) ?? Date.now()
}

/** Route matcher of a brand for the meta file: its route patterns, most specific first. */
function matcherFor(snapshot: Snapshot, brandId: string | null) {
  const routes = brandId ? (snapshot.routes.get(brandId) ?? []) : []
  return { routes: routes.map((r) => r.pattern.source) }
}

/** Serves /builds/latest.json and /builds/meta/{id}.json. */
export function buildFiles(snapshots: SnapshotStore): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    if (ctx.path === BUILD_LATEST_PATH) {
      const id = buildIdFor(snapshots.current.id)
      ctx.set('Cache-Control', 'no-store')
      ctx.body = { id, timestamp: timestampOf(id) }
      return
    }
    if (ctx.path.startsWith(BUILD_META_PREFIX) && ctx.path.endsWith('.json')) {
      const requested = ctx.path.slice(BUILD_META_PREFIX.length, -'.json'.length)
      const snapshot = snapshots.current
      const id = buildIdFor(snapshot.id)
      if (requested !== id) {
        ctx.status = 404
        ctx.set('Cache-Control', 'no-store')
        ctx.body = {
          error: `No build "${requested}"; the current build is ${BUILD_LATEST_PATH}`,
          status: 404,
        }
        return
      }
      const brandId: string | null = ctx.state.brandId
      ctx.set('Cache-Control', 'public, max-age=3600')
      ctx.set('Vary', 'Host')
      ctx.body = { id, timestamp: timestampOf(id), matcher: matcherFor(snapshot, brandId), prerendered: [] }
      return
    }
    return next()
  }
}

/** `/quiz/otc/2/_payload.json` → `/quiz/otc/2`; null when the path is not a payload path. */
export function payloadPagePath(pathname: string): string | null {
  if (!pathname.endsWith(PAGE_PAYLOAD_SUFFIX)) return null
  return pathname.slice(0, -PAGE_PAYLOAD_SUFFIX.length) || '/'
}

/**
 * Answers a payload request with the page's resolution (what its HTML would hydrate with). The query
 * string is the build id: a matching one may be cached, a stale one must not be.
 */
export function sendPayload(ctx: Context, resolution: Resolution): void {
  const id = buildIdFor(resolution.snapshotId)
  const fresh = ctx.querystring === id
  ctx.status = resolution.statusCode
  // A page under experiment is one visitor's variant: never for shared caches (docs/decisions/0105).
  const scope = resolution.experiment ? 'private' : 'public'
  if (resolution.experiment) ctx.vary('Cookie')
  ctx.set('Cache-Control', fresh && resolution.statusCode < 400 ? `${scope}, max-age=3600` : 'no-cache')
  ctx.body = { ...resolution, buildId: id }
}
