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
    req.end()
  })
}
