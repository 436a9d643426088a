import { request } from 'node:http'
import { Readable } from 'node:stream'
import type { DataDirOwner } from '../store/data-dir-lock'

/** A running server the CLIs can reach: one whose server.json names its operator socket. */
export type ReachableOwner = DataDirOwner & { socket: string }

/** Whether the folder's owner listens on its operator socket (docs/decisions/0722). */
export function reachable(owner: DataDirOwner | null): owner is ReachableOwner {
  return !!owner?.socket
}

/**
 * A request to the server that holds the PGlite folder, over its operator socket (DATA_DIR/ops.sock,
 * named by DATA_DIR/server.json), answered as a fetch Response (the body streams).
 */
export function opsFetch(
  owner: ReachableOwner,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: 'localhost', ...init.headers }
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body))
    const req = request({ socketPath: owner.socket, path, method: init.method ?? 'GET', headers }, (res) => {
      const h = new Headers()
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v)
      const status = res.statusCode ?? 500
      const empty = status === 204 || status === 304
      if (empty) res.resume()
      resolve(
        new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
          status,
          headers: h,
        }),
      )
    })
    req.on('error', (e) =>
      reject(
        new Error(`the running server (pid ${owner.pid}) cannot be reached on ${owner.socket}: ${e.message}`),
      ),
    )
    req.end(init.body)
  })
}

/** POSTs JSON to the server that holds the PGlite folder; its 4xx message becomes the error. */
export async function opsPost<T>(owner: ReachableOwner, path: string, body: unknown): Promise<T> {
  const r = await opsFetch(owner, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const answer = (await r.json().catch(() => null)) as { error?: string } | null
  if (!r.ok) throw new Error(answer?.error ?? `the running server (pid ${owner.pid}) answered ${r.status}`)
  return answer as T
}
