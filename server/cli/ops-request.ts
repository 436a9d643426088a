import type { DataDirOwner } from '../store/data-dir-lock'

/**
 * Asks the server that holds the PGlite folder (DATA_DIR/server.json names its port and operator token)
 * to do something for a CLI; its 4xx message becomes the error.
 */
export async function opsPost<T>(owner: DataDirOwner, path: string, body: unknown): Promise<T> {
  const r = await fetch(`http://127.0.0.1:${owner.port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ops-token': owner.token },
    body: JSON.stringify(body),
  })
  const answer = (await r.json().catch(() => null)) as { error?: string } | null
  if (!r.ok) throw new Error(answer?.error ?? `the running server (pid ${owner.pid}) answered ${r.status}`)
  return answer as T
}
