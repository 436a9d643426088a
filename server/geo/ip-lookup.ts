import { clientIp, fromTrustedProxy, isPublicIp } from './client-ip'
import { cleanGeo, type IpLookup } from './geo'
import type { GeoDatabase } from './geo-database'
import { geoFromHeaders } from './geo-headers'

export interface IpRequestFacts {
  remoteAddress: string | undefined
  header: (name: string) => string | undefined
}

/**
 * The visitor's IP and geo: headers of a trusted proxy first, the IP database for what they leave
 * out. Loopback and private addresses give an empty geo, never an error.
 */
export async function lookupIp(
  facts: IpRequestFacts,
  trustedProxies: readonly string[],
  database: GeoDatabase | null,
): Promise<IpLookup> {
  const value = clientIp(facts.remoteAddress, facts.header('x-forwarded-for'), trustedProxies)
  const fromHeaders = fromTrustedProxy(facts.remoteAddress, trustedProxies)
    ? geoFromHeaders(facts.header)
    : {}
  if (!isPublicIp(value)) return { value, geo: cleanGeo(fromHeaders as Record<string, unknown>) }
  const fromDb = database ? await database.lookup(value).catch(() => ({})) : {}
  return { value, geo: cleanGeo({ ...fromDb, ...fromHeaders }) }
}
