/** Reads the e2e server's store over its operator socket (named by DATA_DIR/server.json; 0722). */
import { opsFetch, reachable } from '../../server/cli/ops-request'
import { readDataDirOwner } from '../../server/store/data-dir-lock'
import type { StoredEvent } from '../../server/store/event-store'

/** GET on the operator channel of the server holding `dataDir`: its status and JSON. */
export async function opsGet(dataDir: string, path: string): Promise<{ status: number; json: unknown }> {
  const owner = readDataDirOwner(dataDir)
  if (!reachable(owner)) throw new Error(`no server listens on the operator socket of ${dataDir}`)
  const r = await opsFetch(owner, path)
  return { status: r.status, json: (await r.json()) as unknown }
}

export function opsClient(dataDir: string) {
  return {
    async latestEvents(limit = 200): Promise<StoredEvent[]> {
      return ((await opsGet(dataDir, `/api/_ops/events?limit=${limit}`)).json as { events: StoredEvent[] })
        .events
    },
    async visitor(userId: string): Promise<unknown> {
      const r = await opsGet(dataDir, `/api/_ops/visitors/${encodeURIComponent(userId)}`)
      return r.status === 200 ? r.json : null
    },
  }
}
