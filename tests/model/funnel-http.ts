/**
 * The in-process app over HTTP, as a visitor's browser meets it without any script: GETs and form
 * posts with the cookies a browser keeps, on a brand's host. The funnel model tests and the server's
 * funnel tests drive the one funnel interpreter (the server) through it; no browser is needed.
 * Pages are rendered by Vike under Vite (server rendering only).
 */

import type { Server } from 'node:http'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Middleware } from 'koa'
import compose from 'koa-compose'
import c2k from 'koa-connect'
import { ANONYMOUS_ID_COOKIE, ANSWER_KEY_COOKIE } from '../../engine/constants'
import { createApp } from '../../server/app'
import type { AppDeps } from '../../server/app-deps'
import { loadConfig, type ServerConfig } from '../../server/config'
import { SnapshotStore } from '../../server/content/snapshot-store'
import { createVikeDevMiddleware } from '../../server/render/vike-render'
import { openStore, type Store } from '../../server/store/open-store'

export interface HttpAnswer {
  status: number
  location: string | undefined
  cookies: string[]
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface FunnelHttp {
  port: number
  deps: AppDeps
  store: Store
  snapshots: SnapshotStore
  host: (brand: string) => string
  get: (brand: string, path: string, cookie?: string) => Promise<HttpAnswer>
  post: (
    brand: string,
    path: string,
    form: Record<string, string> | string,
    headers?: Record<string, string>,
  ) => Promise<HttpAnswer>
  json: (brand: string, path: string, body: unknown, cookie?: string) => Promise<HttpAnswer>
  close: () => Promise<void>
}

export async function startFunnelHttp(overrides: Partial<ServerConfig> = {}): Promise<FunnelHttp> {
  const store = await openStore({ databaseUrl: null, dataDir: null })
  // Every path is a new visitor from 127.0.0.1: the throttle of new visitors (decision 0810, tested in
  // answer-lifecycle.test.ts) is lifted here.
  const config = {
    ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error' }),
    newVisitorLimit: 1_000_000,
    ...overrides,
  }
  const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
  const { devMiddleware, viteServer } = await createVikeDevMiddleware({
    root: config.projectRoot,
    viteConfig: {
      server: { hmr: false },
      logLevel: 'error',
      optimizeDeps: { noDiscovery: true, include: [] },
      cacheDir: join(tmpdir(), 'fw-funnel-http-vite'),
    },
  })
  const assets = compose([c2k(devMiddleware as never) as Middleware])
  let port = 0
  const deps: AppDeps = { config, snapshots, store, assets, getPort: () => port }
  const app = createApp(deps)
  const server: Server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  port = (server.address() as AddressInfo).port
  const host = (brand: string) => `${brand}.localhost:${port}`

  const send = (
    method: string,
    brand: string,
    path: string,
    body: string | null,
    headers: Record<string, string>,
  ): Promise<HttpAnswer> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          headers: {
            host: host(brand),
            accept: 'text/html',
            ...(body !== null ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c) => chunks.push(c))
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              location: res.headers.location,
              cookies: res.headers['set-cookie'] ?? [],
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          )
        },
      )
      req.on('error', reject)
      req.end(body ?? undefined)
    })

  return {
    port,
    deps,
    store,
    snapshots,
    host,
    get: (brand, path, cookie = '') => send('GET', brand, path, null, cookie ? { cookie } : {}),
    post: (brand, path, form, headers = {}) =>
      send('POST', brand, path, typeof form === 'string' ? form : new URLSearchParams(form).toString(), {
        origin: `http://${host(brand)}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...headers,
      }),
    json: (brand, path, body, cookie = '') =>
      send('POST', brand, path, JSON.stringify(body), {
        origin: `http://${host(brand)}`,
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
      }),
    close: async () => {
      await new Promise((r) => server.close(r))
      await viteServer?.close()
      await store.close()
    },
  }
}

/** The visitor cookies a browser would send back after `answer` (id and answer key), merged over `held`. */
export function keepCookies(held: string, answer: HttpAnswer): string {
  const jar = new Map(
    held
      .split('; ')
      .filter(Boolean)
      .map((c) => [c.split('=')[0], c] as const),
  )
  for (const c of answer.cookies) {
    const pair = c.split(';')[0]
    const name = pair.split('=')[0]
    if (/expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(name)
    else jar.set(name, pair)
  }
  return [...jar.values()].join('; ')
}

/** The anonymous id a cookie string names. */
export const idOfCookie = (cookie: string) =>
  cookie
    .split('; ')
    .find((c) => c.startsWith(`${ANONYMOUS_ID_COOKIE}=`))
    ?.split('=')[1] ?? null

/** Whether a cookie string holds an answer key. */
export const holdsKey = (cookie: string) => cookie.includes(`${ANSWER_KEY_COOKIE}=`)
