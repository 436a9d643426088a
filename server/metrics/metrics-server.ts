/**
 * `GET /metrics` on METRICS_PORT, an http server of its own (docs/decisions/0710): the site's
 * listener never answers /metrics (a brand host gets its normal 404 page), and this one answers
 * nothing else and nothing to a Host that names a brand, whatever the network lets through.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Snapshot } from '../../engine/snapshot/types'
import { log } from '../log'
import { brandIdForHost } from '../render/resolve-request'
import type { Metrics } from './metrics'

export const METRICS_PATH = '/metrics'

export interface MetricsServer {
  port: number
  close(): Promise<void>
}

export async function startMetricsServer(opts: {
  metrics: Metrics
  snapshots: { readonly current: Snapshot }
  host: string
  port: number
}): Promise<MetricsServer> {
  const { metrics, snapshots } = opts
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    const plain = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      })
      res.end(text)
    }
    if (path !== METRICS_PATH || brandIdForHost(snapshots.current, req.headers.host))
      return plain(404, `Not found: this port serves ${METRICS_PATH} only\n`)
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(405, `${METRICS_PATH} answers GET only\n`, { allow: 'GET, HEAD' })
    metrics.exposition().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' })
        res.end(req.method === 'HEAD' ? undefined : text)
      },
      (e) => {
        log('error', 'metrics scrape failed', { error: (e as Error).stack ?? String(e) })
        plain(500, 'the metrics could not be collected; see the server log\n')
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(opts.port, opts.host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
