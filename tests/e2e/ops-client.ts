/** Reads the e2e server's store through its operator endpoints (token from DATA_DIR/server.json). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StoredEvent } from '../../server/store/event-store'

export function opsClient(dataDir: string, port: number) {
  const token = () =>
    (JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { token: string }).token
  const get = async (path: string) => {
    const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-ops-token': token() } })
    return { status: r.status, json: (await r.json()) as unknown }
  }
  return {
    async latestEvents(limit = 200): Promise<StoredEvent[]> {
      return ((await get(`/api/_ops/events?limit=${limit}`)).json as { events: StoredEvent[] }).events
    },
    async visitor(userId: string): Promise<unknown> {
      const r = await get(`/api/_ops/visitors/${encodeURIComponent(userId)}`)
      return r.status === 200 ? r.json : null
    },
  }
}
