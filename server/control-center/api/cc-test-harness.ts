/**
 * For the control center's API tests: the real server (createApp) over a real content repository in a
 * temporary folder, on the embedded PGlite in memory or on PostgreSQL in a schema of its own, with
 * staff users signed in by sessions made directly (signing in is the auth API's test, and its hash
 * budget would slow every file). Requests go through node:http because fetch() cannot set Host.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { type IncomingHttpHeaders, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Router from '@koa/router'
import sharp from 'sharp'
import { AUTH_SESSION_COOKIE } from '../../../engine/constants'
import { createApp } from '../../app'
import type { AppDeps } from '../../app-deps'
import { loadConfig, type ServerConfig } from '../../config'
import type { FleetOptions } from '../../content/content-fleet'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from '../../content/content-services'
import { OpsChannel } from '../../runtime/ops-channel'
import { createSession, createStaffUser } from '../../store/auth-store'
import type { Store } from '../../store/open-store'
import { openTestStore } from '../../store/test-databases'
import { type CcAnswerName, ccAnswerProblems } from './answers'
import type { CcMiddleware } from './cc-route'
import { controlCenterApi } from './index'

/** The control center's host (brand ccc). */
export const CC_HOST = 'ccc.localhost'

export interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  text: string
  /** The body parsed as JSON, or undefined when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the assertions check
  json: any
}

export interface StaffSpec {
  name: string
  role: 'viewer' | 'editor' | 'publisher' | 'admin'
}

export interface CcHarness<W extends string> {
  dir: string
  store: Store
  cc: ContentServices
  opened: OpenedContent
  config: ServerConfig
  base: string
  staff: Record<W, { id: string; cookie: string }>
  /** A raw request as `who` (null: nobody signed in). Host defaults to the control center's. */
  send(
    who: W | null,
    method: string,
    path: string,
    body?: Buffer | string,
    headers?: Record<string, string>,
  ): Promise<Answer>
  /**
   * The operator channel (with the `ops` option): the same app over a Unix socket in `dir`, as the
   * CLIs reach a running server (docs/decisions/0722). Nobody is signed in.
   */
  ops: {
    send(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<Answer>
    call(method: string, path: string, body?: unknown): Promise<Answer>
  }
  /** A JSON request as `who`; a body-less POST sends `{}`. */
  call(
    who: W | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer>
  /** As `who`: edits the JSON file `path` on `branch` through a draft and commits it; returns the commit. */
  // biome-ignore lint/suspicious/noExplicitAny: tests reach into the documents
  commitEdit(who: W, branch: string, path: string, edit: (doc: any) => void): Promise<string>
  close(): Promise<void>
}

/** One staff user per role below admin, named after it: the role tests' cast. */
export const ONE_PER_ROLE = {
  viewer: { name: 'Viewer', role: 'viewer' },
  editor: { name: 'Editor', role: 'editor' },
  publisher: { name: 'Publisher', role: 'publisher' },
} as const satisfies Record<string, StaffSpec>

/** Fleet options for tests that drive the content services themselves: no LISTEN, loops an hour apart. */
export const HELD_FLEET = {
  listen: false,
  reconcileMs: 3_600_000,
  scheduleMs: 3_600_000,
} as const satisfies Partial<FleetOptions>

/** Every /api/cc route as the router registers it, with the answer its handler declares (null: none). */
export function ccRouteAnswers(): { method: string; path: string; answer: CcAnswerName | null }[] {
  return ccRouter().stack.flatMap((layer) =>
    layer.methods
      .filter((m) => m !== 'HEAD')
      .map((method) => ({ method, path: layer.path as string, answer: answerOfLayer(layer) })),
  )
}

let router: Router | undefined
/** The control center's routes alone (no deps: the handlers are registered, never run). */
function ccRouter(): Router {
  if (!router) {
    router = new Router()
    controlCenterApi(router, {} as AppDeps)
  }
  return router
}

const answerOfLayer = (layer: { stack: unknown[] }) =>
  (layer.stack.at(-1) as Partial<CcMiddleware> | undefined)?.ccAnswer ?? null

/**
 * Checks an answer of the control center's API against the schema its route declares (a refusal
 * against the error schema; docs/decisions/0976): throws naming every mismatch. A path no /api/cc
 * route matches is not checked.
 */
export function checkCcAnswer(method: string, url: string, answer: Pick<Answer, 'status' | 'text'>): void {
  const path = url.split('?')[0]
  if (!path.startsWith('/api/cc/')) return
  const layers = ccRouter().match(path, method).pathAndMethod
  const declared = layers.length ? answerOfLayer(layers.at(-1)!) : null
  if (!declared) {
    if (!layers.length && answer.status < 400)
      throw new Error(`${method} ${path}: ${answer.status} from no route`)
    if (!layers.length) return
    throw new Error(`${method} ${path}: its route declares no answer schema`)
  }
  const problems = ccAnswerProblems(declared, answer.status, answer.text)
  if (problems.length)
    throw new Error(
      `${method} ${path} answered ${answer.status} off its schema:\n  ${problems.join('\n  ')}\n${answer.text.slice(0, 2000)}`,
    )
}

/** A solid-colour RGB PNG of `width`×`height`: an image to upload. */
export function testPng(width: number, height: number, background: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer()
}

export async function startCcHarness<W extends string>(options: {
  /** The temporary folder's name prefix (tells which test left it behind). */
  prefix: string
  staff: Record<W, StaffSpec>
  /** On the test run's PostgreSQL server, in a schema of its own, instead of PGlite in memory. */
  postgres?: boolean
  config?: Partial<ServerConfig>
  /** Turns the operator channel on: /api/_ops/* answer over `ops` (a Unix socket), never `send`. */
  ops?: boolean
}): Promise<CcHarness<W>> {
  const dir = mkdtempSync(join(tmpdir(), options.prefix))
  const store = await openTestStore(options.postgres ? 'postgres' : 'pglite')
  const databaseUrl = store.databaseUrl
  const config: ServerConfig = {
    ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' }),
    databaseUrl,
    dataDir: dir,
    contentGitDir: join(dir, 'content.git'),
    contentSource: 'git',
    ...options.config,
  }
  const opened = (await openContent(config)) as OpenedContent
  const cc = startContentServices(opened, store, config, HELD_FLEET)
  const opsChannel = options.ops ? new OpsChannel() : undefined
  const app = createApp({
    config,
    snapshots: opened.snapshots,
    store,
    content: cc,
    opsChannel,
  })
  const server: Server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  const opsSocket = await opsChannel?.listen(dir, app.callback())
  const port = (server.address() as AddressInfo).port
  const base = `http://127.0.0.1:${port}`

  const staff = {} as Record<W, { id: string; cookie: string }>
  for (const [who, spec] of Object.entries(options.staff) as [W, StaffSpec][]) {
    const user = await createStaffUser(store.db, {
      email: `${who}-${randomUUID()}@x.test`,
      name: spec.name,
      password: 'pw',
      role: spec.role,
    })
    const session = await createSession(store.db, user.id, { ip: '127.0.0.1', userAgent: 'test' })
    staff[who] = { id: user.id, cookie: `${AUTH_SESSION_COOKIE}=${session.token}` }
  }

  const sendTo = (
    socketPath: string | null,
    who: W | null,
    method: string,
    path: string,
    body?: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const host = headers.host ?? CC_HOST
    const h: Record<string, string> = { host, ...(who ? { cookie: staff[who].cookie } : {}) }
    if (method !== 'GET') h.origin = `http://${host}`
    Object.assign(h, headers)
    for (const [k, v] of Object.entries(h)) if (v === '') delete h[k]
    if (body !== undefined) h['content-length'] = String(Buffer.byteLength(body))
    return new Promise((resolve, reject) => {
      const to = socketPath ? { socketPath, path } : { host: '127.0.0.1', port, path }
      const req = request({ ...to, method, headers: h }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const buf = Buffer.concat(chunks)
          const text = buf.toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {}
          const answer = { status: res.statusCode ?? 0, headers: res.headers, body: buf, text, json }
          try {
            // Every answer of the control center's API is checked against its schema.
            checkCcAnswer(method, path, answer)
          } catch (e) {
            reject(e)
            return
          }
          resolve(answer)
        })
      })
      req.on('error', reject)
      req.end(body)
    })
  }
  const send: CcHarness<W>['send'] = (who, method, path, body, headers) =>
    sendTo(null, who, method, path, body, headers)
  const noOps = () => Promise.reject(new Error('start the harness with ops: true'))
  const ops: CcHarness<W>['ops'] = {
    send: (method, path, body, headers) =>
      opsSocket ? sendTo(opsSocket, null, method, path, body, headers) : noOps(),
    call: (method, path, body) =>
      opsSocket
        ? sendTo(
            opsSocket,
            null,
            method,
            path,
            body === undefined ? undefined : JSON.stringify(body),
            body === undefined ? {} : { 'content-type': 'application/json' },
          )
        : noOps(),
  }
  const call: CcHarness<W>['call'] = (who, method, path, body, headers = {}) =>
    send(
      who,
      method,
      path,
      body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body),
      method === 'GET' ? headers : { 'content-type': 'application/json', ...headers },
    )

  const ok = (a: Answer, status: number, what: string) => {
    if (a.status !== status) throw new Error(`${what}: ${a.status} ${a.text}`)
    return a
  }
  const commitEdit: CcHarness<W>['commitEdit'] = async (who, branch, path, edit) => {
    const api = `/api/cc/branches/${branch}`
    const file = ok(await call(who, 'GET', `${api}/file?path=${path}`), 200, `read ${path}`)
    const doc = JSON.parse(file.json.text)
    edit(doc)
    ok(
      await call(who, 'PUT', `${api}/drafts?path=${path}`, { text: `${JSON.stringify(doc, null, 2)}\n` }),
      200,
      `save ${path}`,
    )
    const head = ok(await call(who, 'GET', api), 200, `branch ${branch}`).json.branch.head
    const commit = await call(who, 'POST', `${api}/commits`, {
      message: `edit ${path}`,
      expectedHead: head,
      paths: [path],
    })
    return ok(commit, 201, `commit ${path}`).json.commit
  }

  return {
    dir,
    store,
    cc,
    opened,
    config,
    base,
    staff,
    send,
    ops,
    call,
    commitEdit,
    async close() {
      await new Promise((r) => server.close(r))
      await opsChannel?.close()
      await cc.close()
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
