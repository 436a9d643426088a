import type { Context } from 'koa'

/** Reads a JSON request body of at most `maxBytes`; throws a 4xx with a clear message otherwise. */
export async function readJsonBody(ctx: Context, maxBytes: number): Promise<unknown> {
  if (!ctx.is('application/json')) ctx.throw(415, 'Send the body as JSON (Content-Type: application/json)')
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > maxBytes) ctx.throw(413, `Body too large (at most ${maxBytes} bytes)`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length
    if (size > maxBytes) ctx.throw(413, `Body too large (at most ${maxBytes} bytes)`)
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return JSON.parse(text)
  } catch (e) {
    ctx.throw(400, `Body is not valid JSON: ${(e as Error).message}`)
  }
}
