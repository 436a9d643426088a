import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Reader } from 'mmdb-lib'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultGeoDatabases, GeoDatabase } from './geo-database'
import { US_STATE_CODES } from './us-states'

const [IPV4_FILE, IPV6_FILE] = defaultGeoDatabases()

interface CityRecord {
  country_code?: string
  state1?: string
  city?: string
  postcode?: string
}

/** What the geo of a record is, field by field (empty strings are no answer). */
function expectedGeo(r: CityRecord | null) {
  const geo: Record<string, string> = {}
  if (r?.postcode) geo.postalCode = r.postcode
  if (r?.city) geo.cityName = r.city
  if (r?.state1) geo.stateCode = r.country_code === 'US' ? (US_STATE_CODES[r.state1] ?? r.state1) : r.state1
  return geo
}

describe('GeoDatabase on the bundled files', () => {
  const database = new GeoDatabase(defaultGeoDatabases(), { cacheBytes: 256 * 1024 })

  it('answers each IPv4 address as the IPv4 file says', async () => {
    const reference = new Reader(readFileSync(IPV4_FILE))
    for (let i = 0; i < 500; i++) {
      const ip = `${(i * 37) % 223 || 1}.${(i * 91) % 256}.${(i * 13) % 256}.${i % 256}`
      expect(await database.lookup(ip), ip).toEqual(expectedGeo(reference.get(ip) as CityRecord | null))
    }
    expect((await database.lookup('73.162.0.1')).stateCode).toMatch(/^[A-Z]{2}$/)
  })

  it('answers an IPv6 address from the IPv6 file only, never from the IPv4 file', async () => {
    const reference = new Reader(readFileSync(IPV6_FILE))
    for (const ip of [
      '2001:4860:4860::8888',
      '2600:1700::1',
      '2a00:1450:4001::1',
      '2c0f:fb50::1',
      '2001:db8::1',
    ])
      expect(await database.lookup(ip), ip).toEqual(expectedGeo(reference.get(ip) as CityRecord | null))
  })

  it('text that is not an IP address: an empty geo', async () => {
    expect(await database.lookup('example.com')).toEqual({})
  })
})

describe('GeoDatabase with a file that cannot be read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-geo-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('warns, naming the file, and answers from the others', async () => {
    const bad = join(dir, 'bad.mmdb')
    writeFileSync(bad, 'not a database')
    const warnings: string[] = []
    const write = process.stderr.write.bind(process.stderr)
    process.stderr.write = ((chunk: string) => {
      warnings.push(String(chunk))
      return true
    }) as typeof process.stderr.write
    try {
      expect(await new GeoDatabase([bad]).lookup('73.162.0.1')).toEqual({})
      const withGood = await new GeoDatabase([bad, IPV4_FILE]).lookup('73.162.0.1')
      expect(withGood.stateCode).toMatch(/^[A-Z]{2}$/)
    } finally {
      process.stderr.write = write
    }
    expect(warnings.length).toBe(2)
    for (const w of warnings) {
      expect(JSON.parse(w)).toMatchObject({
        level: 'warn',
        msg: 'IP database not readable; geo stays empty',
        file: bad,
      })
      expect(JSON.parse(w).error).toContain('not a MaxMind DB file')
    }
  })
})
