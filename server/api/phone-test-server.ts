/** Test helper: the real Koa app on an ephemeral loopback port, with configuration overrides. */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createApp } from '../app'
import { loadConfig, type ServerConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import type { Store } from '../store/open-store'

export async function startTestApp(overrides: Partial<ServerConfig>, store?: Store) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error' }, overrides)
  const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
  const app = createApp({ config, snapshots, store })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
