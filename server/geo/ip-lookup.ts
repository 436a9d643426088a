import type { IpLookup } from '../../schemas/generated/api-ip'
import type { RequestClient } from '../http/request-client'
import { cleanGeo } from './geo'
import type { GeoDatabase } from './geo-database'
import { geoFromHeaders } from './geo-headers'
import { isPublicIp } from './is-public-ip'

/**
 * The visitor's IP and geo: headers of a trusted proxy first, the IP database for what they leave
 * out. Loopback and private addresses give an empty geo, never an error.
 */
export async function lookupIp(
  client: RequestClient,
  header: (name: string) => string | undefined,
  database: GeoDatabase | null,
): Promise<IpLookup> {
  const value = client.ip
  const fromHeaders = client.viaTrustedProxy ? geoFromHeaders(header) : {}
  if (!isPublicIp(value)) return { value, geo: cleanGeo(fromHeaders as Record<string, unknown>) }
  const fromDb = database ? await database.lookup(value).catch(() => ({})) : {}
  return { value, geo: cleanGeo({ ...fromDb, ...fromHeaders }) }
}
