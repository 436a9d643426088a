/**
 * Starts the funnelworks server: checks configuration, loads the definitions, wires the assets
 * (production build or Vite in development) and listens. `npm start` / `npm run dev`.
 */
import { existsSync, realpathSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Middleware } from 'koa'
import compose from 'koa-compose'
import { ANSWERS_RETENTION_DEFAULT_DAYS } from '../engine/constants'
import { createRequestListener } from './app'
import { ConfigError, loadConfig, type ServerConfig } from './config'
import { openContent, startContentServices } from './content/content-services'
import { GitMissingError } from './content/git/git-process'
import { SnapshotRefusedError } from './content/snapshot-store'
import { gracefulClose } from './http/graceful-close'
import { log, setLogLevel } from './log'
import { Metrics } from './metrics/metrics'
import { METRICS_PATH, startMetricsServer } from './metrics/metrics-server'
import { staticFiles } from './middleware/static-files'
import { setClientBuild } from './render/builds'
import { devOverlay, wireDevReload } from './render/dev-overlay'
import { createVikeDevMiddleware, loadProductionBuild } from './render/vike-render'
import { notLiveYet } from './runtime/not-live-yet'
import { OpsChannel } from './runtime/ops-channel'
import { productionBuildDir } from './runtime/production-build'
import { registerRunningServer } from './runtime/running-servers'
import { claimDataDir, DataDirInUseError } from './store/data-dir-lock'
import { startEventMaintenance } from './store/event-maintenance'
import { openStore, StoreUnavailableError } from './store/open-store'

export interface RunningServer {
  server: Server
  port: number
  /** Where GET /metrics answers (METRICS_PORT), or null when off. */
  metricsPort: number | null
  close(): Promise<void>
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  setLogLevel(config.logLevel)
  // The live snapshot: the published git commit (CONTENT_SOURCE=git) or the working tree.
  const content = await openContent(config)
  const snapshots = content.snapshots
  let assets: Middleware
  let closeDev: (() => Promise<void>) | undefined
  if (config.mode === 'development') {
    const { default: c2k } = await import('koa-connect')
    // Vite's hot-reload socket on a free port of its own: its fixed default (24678) would make a second
    // dev server (another checkout, a test) silently lose reloads.
    const hmrPort = await freePort(config.host)
    const { devMiddleware, viteServer } = await createVikeDevMiddleware({
      root: config.projectRoot,
      viteConfig: { server: { hmr: { port: hmrPort } } },
    })
    // Broken definitions show in the browser (Vite's overlay), and fixing them reloads the page.
    assets = compose([devOverlay(snapshots), c2k(devMiddleware as never) as Middleware])
    if (config.contentSource === 'worktree') await snapshots.watch()
    if (viteServer) wireDevReload(snapshots, viteServer.ws)
    closeDev = async () => {
      await snapshots.close()
      await viteServer?.close()
    }
  } else {
    // This server's own build, whole, even when `dist` is switched to a newer one (decision 0332).
    const build = productionBuildDir(config.projectRoot)
    await loadProductionBuild(build)
    setClientBuild(join(build, 'client'))
    assets = staticFiles(join(build, 'client'))
    // CONTENT_SOURCE=worktree serves definitions/ as files in production too: edits swap the snapshot
    // (a broken edit is refused and the last valid one keeps serving), as under npm run dev.
    if (config.contentSource === 'worktree') {
      await snapshots.watch()
      closeDev = () => snapshots.close()
    }
  }
  // The data store: PGlite in DATA_DIR unless DATABASE_URL names a PostgreSQL server.
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((e) => {
    lock?.release()
    content.repository?.close()
    throw e
  })
  log('info', 'data store ready', { kind: store.db.kind, location: store.location })
  // Partitions ahead, rollup catch-up and retention (docs/decisions/0311, 0312); stopped before the store closes.
  const eventMaintenance = startEventMaintenance(store.db, {
    retentionDays: config.eventsRetentionDays ?? null,
    answersRetentionDays: config.answersRetentionDays ?? ANSWERS_RETENTION_DEFAULT_DAYS,
  })
  const closeStore = store.close
  store.close = () => eventMaintenance.stop().then(closeStore)
  // Built here once and passed down; nothing is counted when METRICS_PORT is off (docs/decisions/0710).
  const metrics = config.metricsPort === null ? undefined : new Metrics()
  metrics?.watch({ eventQueue: store.events })
  const contentServices = content.repository
    ? startContentServices(content, store, config, {}, metrics)
    : null
  // A publish a crash left half done is completed or abandoned before anything is served (0612).
  // When that fails (a remote out of reach), the 30 s reconcile tries again.
  await contentServices?.publisher
    .settleInterrupted()
    .catch((e) => log('warn', 'settling an interrupted publish failed', { error: String(e) }))
  let port = config.port
  let shuttingDown = false
  // The CLIs' way in: a Unix socket in DATA_DIR, never the site port (docs/decisions/0722).
  const opsChannel = lock ? new OpsChannel() : null
  const { listener } = createRequestListener({
    config,
    snapshots,
    assets,
    store,
    opsChannel: opsChannel ?? undefined,
    getPort: () => port,
    liveCommit: () => contentServices?.live.commit ?? null,
    content: contentServices ?? undefined,
    closing: () => shuttingDown,
    metrics,
  })
  const server = await new Promise<Server>((resolve, reject) => {
    // Cached pages are answered before Koa (docs/decisions/0530); the rest goes through its chain.
    const s = createServer(listener).listen(config.port, config.host, () => resolve(s))
    s.once('error', reject)
  }).catch(async (e) => {
    await contentServices?.close()
    await store.close()
    lock?.release()
    await closeDev?.()
    throw e
  })
  const address = server.address()
  if (address && typeof address === 'object') port = address.port
  const metricsServer =
    metrics && config.metricsPort !== null
      ? await startMetricsServer({ metrics, snapshots, host: config.host, port: config.metricsPort }).catch(
          async (e) => {
            server.close()
            await contentServices?.close()
            await store.close()
            lock?.release()
            await closeDev?.()
            if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
              throw new ConfigError(
                'METRICS_PORT',
                `${config.metricsPort} is already in use; set a free port`,
              )
            throw e
          },
        )
      : null
  if (metricsServer) log('info', 'metrics listening', { port: metricsServer.port, path: METRICS_PATH })
  const opsSocket = await opsChannel?.listen(config.dataDir, listener).catch((e) => {
    // Never fatal: the CLIs then open the folder themselves once the server stops.
    log('warn', 'no operator socket: the CLIs cannot reach this server', { error: String(e) })
    return null
  })
  lock?.setListening(port, opsSocket ?? null)
  // Lets the CLIs find this server and its data without being told DATA_DIR (docs/decisions/0615).
  const runFile = registerRunningServer({
    port,
    projectRoot: config.projectRoot,
    dataDir: config.dataDir,
    store: config.databaseUrl ? 'postgres' : 'pglite',
    contentSource: config.contentSource,
    contentGitDir: content.repository ? config.contentGitDir : null,
    contentRemote: config.contentRemote,
  })
  if (runFile.error) log('warn', 'no run file: the CLIs will need DATA_DIR', { error: runFile.error })
  // Chosen, not Node's defaults (which keep a slow client for 5 minutes): docs/decisions/0703.
  server.headersTimeout = config.headersTimeoutMs
  server.requestTimeout = config.requestTimeoutMs
  server.keepAliveTimeout = config.keepAliveTimeoutMs
  server.maxConnections = config.maxConnections
  const graceful = gracefulClose(server)
  let closing: Promise<void> | undefined
  const close = () => {
    // From now on every answer says Connection: close, so each keep-alive socket ends with its
    // response instead of being cut under a client that is about to reuse it.
    shuttingDown = true
    closing ??= graceful.close(config.shutdownTimeoutMs).then(async () => {
      await metricsServer?.close()
      await opsChannel?.close()
      await closeDev?.()
      await contentServices?.close()
      await store.close()
      lock?.release()
      runFile.remove()
    })
    return closing
  }
  return { server, port, metricsPort: metricsServer?.port ?? null, close }
}

export async function main(): Promise<void> {
  let config: ServerConfig
  try {
    config = loadConfig()
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(1)
    }
    throw e
  }
  if (
    config.mode === 'production' &&
    !existsSync(join(productionBuildDir(config.projectRoot), 'server', 'entry.mjs'))
  ) {
    console.error(
      'No production build found (dist/). Run `npm run build`, or use `npm start`, which builds first.',
    )
    process.exit(1)
  }
  let running: RunningServer
  try {
    running = await startServer(config)
  } catch (e) {
    if (
      e instanceof SnapshotRefusedError ||
      e instanceof GitMissingError ||
      e instanceof DataDirInUseError ||
      e instanceof StoreUnavailableError
    ) {
      console.error(e.message)
      process.exit(1)
    }
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`)
      process.exit(1)
    }
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`PORT: ${config.port} is already in use; set PORT to a free port`)
      process.exit(1)
    }
    throw e
  }
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  log('info', 'listening', { port: running.port, mode: config.mode })
  console.log(
    `funnelworks ${config.mode} server on http://${shown}:${running.port}/ — open http://m10.localhost:${running.port}/ (brands: m10 bh ac emily mpa gs tqg ps ccc)`,
  )
  if (running.metricsPort !== null)
    console.log(`metrics on http://${shown}:${running.metricsPort}${METRICS_PATH} (Prometheus text format)`)
  // A developer's edits are not what a git-content server publishes until imported and published.
  // The dev server's DATA_DIR is its own (PGlite allows one server per folder): whichever it is, the
  // live one is the git-content server running from this checkout, else its own repository.
  if (config.mode === 'development') for (const line of notLiveYet(config, {})) console.log(line)
  const shutdown = (signal: string) => {
    log('info', 'shutting down', { signal })
    running.close().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
}

/** Run as a script: `node dist/app/server.mjs` (the systemd unit), through links (`current`, `dist`) too. */
const script = process.argv[1] && existsSync(process.argv[1]) ? realpathSync(process.argv[1]) : null
if (script && import.meta.url === pathToFileURL(script).href) await main()
