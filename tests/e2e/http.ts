/** Plain HTTP requests with a Host header (Node's fetch drops a custom Host: STACK pitfall 5). */
import { request } from 'node:http'

export interface HttpResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** The body as received (still compressed when the server sent Content-Encoding). */
  raw: Buffer
}

export function httpGet(
  port: number,
  path: string,
  host: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const raw = Buffer.concat(chunks)
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), raw })
      })
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * A JSON request on `host` as that host's own pages send it (Origin, and the session cookie when
 * given); `cookie` is what the answer's Set-Cookie set, as a Cookie header.
 */
export async function sendJson(
  port: number,
  host: string,
  method: string,
  path: string,
  body?: unknown,
  cookie = '',
): Promise<HttpResult & { cookie: string }> {
  const headers: Record<string, string> = { origin: `http://${host}` }
  if (cookie) headers.cookie = cookie
  if (body !== undefined) headers['content-type'] = 'application/json'
  const r = await httpGet(
    port,
    path,
    host,
    headers,
    method,
    body === undefined ? undefined : JSON.stringify(body),
  )
  const set = ([] as string[]).concat(r.headers['set-cookie'] ?? [])
  return { ...r, cookie: set.map((c) => c.split(';')[0]).join('; ') }
}
