/** Test helper: the real Koa app on an ephemeral loopback port, with configuration overrides. */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { MarketplaceFacts } from '../../engine/phone/payloads'
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

/** A visitor's marketplace facts on brand m10 (the test definitions' placement and rule); a test overrides what it needs. */
export function testMarketplaceFacts(overrides: Partial<MarketplaceFacts> = {}): MarketplaceFacts {
  return {
    brandId: 'm10',
    ip: '203.0.113.9',
    geo: { postalCode: '33101', stateCode: 'FL' },
    localHour: 10,
    placementId: 'm10-Jk7Qw2Lp9Xz4',
    ruleAfid: '100101',
    userAgent: 'vitest',
    url: 'http://m10.localhost/',
    pageKey: 'home-m10',
    urlParams: {},
    userId: 'u1',
    sessionId: 's1',
    ...overrides,
  }
}
