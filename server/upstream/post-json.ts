import { Agent as HttpAgent, request as httpRequest } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/** Thrown when the whole exchange (connect, send, answer) took longer than allowed. */
export class UpstreamTimeoutError extends Error {
  override name = 'TimeoutError'
}

const MAX_ANSWER_BYTES = 256 * 1024
// Kept-alive connections: the marketplace is called for every lease and demand check. node:http is
// used rather than fetch, which measured about three times slower per call here (tools/bench).
const agents = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 64 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 64 }),
}

/** POSTs a JSON text and reads the answer as text, all within `timeoutMs`. */
export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const target = new URL(url)
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest
  const agent = agents[target.protocol as keyof typeof agents]
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (c: Buffer) => {
          size += c.length
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('answer too large'))
          else chunks.push(c)
        })
        res.on('end', () => {
          clearTimeout(timer)
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })
        })
        res.on('error', (e) => {
          clearTimeout(timer)
          reject(e)
        })
      },
    )
    const timer = setTimeout(
      () => req.destroy(new UpstreamTimeoutError(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    )
    req.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    req.end(body)
  })
}
