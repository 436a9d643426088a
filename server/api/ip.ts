import type Router from '@koa/router'
import type { AppDeps } from '../app-deps'
import { defaultGeoDatabases, GeoDatabase } from '../geo/geo-database'
import { lookupIp } from '../geo/ip-lookup'
import { clientOf } from '../http/request-client'

/**
 * GET /api/ip → schemas/api-ip.schema.json `{ value, geo: { postalCode?, stateCode?, cityName?, isp? } }`
 * (spec point 3). Loopback and private IPs answer an empty geo.
 */
export function registerIpApi(router: Router, deps: AppDeps): void {
  const { config } = deps
  const files = config.geoipDatabases ?? defaultGeoDatabases()
  const database = files.length
    ? new GeoDatabase(files, config.geoipCacheKb ? { cacheBytes: config.geoipCacheKb * 1024 } : {})
    : null
  router.get('/api/ip', async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await lookupIp(clientOf(ctx), (n) => ctx.get(n) || undefined, database)
  })
}
