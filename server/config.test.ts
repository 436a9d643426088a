import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONFIG, ConfigError, loadConfig } from './config'

/** The rows of the README's configuration table: variable → meaning. */
function readmeRows(): Map<string, string> {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? ''
  const rows = new Map<string, string>()
  for (const line of section.split('\n')) {
    const m = /^\|\s*`([A-Z_]+)`\s*\|\s*(.*?)\s*\|$/.exec(line)
    if (m) rows.set(m[1], m[2].replace(/\s+/g, ' '))
  }
  return rows
}

describe('configuration table', () => {
  it('the README lists exactly the variables the server reads, with the same descriptions', () => {
    expect(readmeRows()).toEqual(new Map(CONFIG.map((v) => [v.name, v.description])))
  })

  it('names the variable in every error', () => {
    const bad: Record<string, string> = {
      PORT: 'eighty',
      NODE_ENV: 'staging',
      DATABASE_URL: 'mysql://x',
      BRAND_INDEX: 'maybe',
      TRUSTED_PROXIES: 'proxy.local',
      MEDIAALPHA_TIMEOUT_MS: '99999',
      LOG_LEVEL: 'loud',
      METRICS_PORT: 'ninety',
    }
    for (const [name, value] of Object.entries(bad)) {
      const attempt = () => loadConfig({ [name]: value })
      expect(attempt, name).toThrow(ConfigError)
      expect(attempt, name).toThrow(new RegExp(`^${name}: `))
    }
  })

  it('METRICS_PORT is off by default, a port of its own when set, never the site port', () => {
    expect(loadConfig({}).metricsPort).toBeNull()
    expect(loadConfig({ METRICS_PORT: 'off' }).metricsPort).toBeNull()
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464)
    expect(() => loadConfig({ PORT: '9464', METRICS_PORT: '9464' })).toThrow(
      /^METRICS_PORT: must differ from PORT \(9464\)$/,
    )
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/^METRICS_PORT: must be between 0 and 65535/)
  })

  it('defaults when nothing is set', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      mode: 'production',
      trustedProxies: [],
      logLevel: 'info',
    })
  })
})
