/**
 * The one JSON body reader of the server: Content-Type, size, UTF-8, JSON, safety and schema, each
 * refused with a 4xx that names the problem (server/http/http-error.ts).
 *
 *   const login = await readJson<AuthLogin>(ctx, { limit: API_BODY_LIMIT_BYTES, schema: 'auth-login.schema.json' })
 */
import type { Context } from 'koa'
import { describeErrors, validatorFor } from '../../engine/definitions/validators'
import { HttpError } from './http-error'

/** Keys that could reach an object's prototype if some code ever merged the body into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])
/** Deepest nesting a body may have; our schemas need fewer than 8 levels. */
export const JSON_MAX_DEPTH = 32
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

export interface ReadJsonOptions {
  /** Most bytes the body may have. */
  limit: number
  /** A schema in schemas/ the body must match (checked after the safety checks). */
  schema?: string
}

/** Reads, parses and checks a JSON body; the result has the schema's type. */
export async function readJson<T = unknown>(ctx: Context, opts: ReadJsonOptions): Promise<T> {
  const value = await readJsonBody(ctx, opts.limit)
  return opts.schema ? checkSchema<T>(opts.schema, value) : (value as T)
}

/**
 * Reads a JSON body of at most `limit` bytes. A body over the limit is refused with 413 and the
 * connection is closed after the answer; the rest of the body is read and dropped so a keep-alive
 * client is never left waiting on a half-read request.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  if (!ctx.is('application/json')) {
    discardBody(ctx)
    throw new HttpError(
      415,
      `Content-Type: send the body as application/json (got ${ctx.get('content-type') || 'none'})`,
      { close: true },
    )
  }
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > limit) {
    discardBody(ctx)
    throw new HttpError(413, `body: ${declared} bytes; the limit is ${limit} bytes`, { close: true })
  }
  const chunks = await readUpTo(ctx, limit)
  let text: string
  try {
    text = utf8.decode(chunks)
  } catch {
    throw new HttpError(400, 'body: is not valid UTF-8')
  }
  if (!text.trim()) throw new HttpError(400, 'body: is empty; expected JSON')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    throw new HttpError(400, `body: is not valid JSON (${(e as Error).message})`)
  }
  const problem = unsafeJson(value, '', 0)
  if (problem) throw new HttpError(400, problem)
  return value
}

/**
 * Reads a raw body (an upload) of at most `limit` bytes, with the same 413 and connection handling
 * as readJsonBody; the caller checks what the bytes are.
 */
export async function readBytes(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > limit) {
    discardBody(ctx)
    throw new HttpError(413, `body: ${declared} bytes; the limit is ${limit} bytes`, { close: true })
  }
  const chunks = await readUpTo(ctx, limit)
  return chunks
}

/**
 * The body, or a 413 when it grows past `limit`. Not `for await` over the request: leaving that loop
 * early destroys the request and its socket, and the client would get a reset instead of the 413;
 * here the rest of the body is read and dropped while the answer goes out.
 */
function readUpTo(ctx: Context, limit: number): Promise<Buffer> {
  const req = ctx.req
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const stop = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        stop()
        discardBody(ctx)
        reject(new HttpError(413, `body: over the limit of ${limit} bytes`, { close: true }))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      stop()
      resolve(Buffer.concat(chunks))
    }
    const onError = (e: Error) => {
      stop()
      reject(e)
    }
    req.on('data', onData)
    req.once('end', onEnd)
    req.once('error', onError)
  })
}

/** Validates against a schema in schemas/; a 400 names the first field at fault and lists the rest. */
export function checkSchema<T>(schemaFile: string, value: unknown, prefix = ''): T {
  const validate = validatorFor(schemaFile)
  if (validate(value)) return value as T
  const problems = describeErrors(validate.errors ?? []).map((p) => {
    // A missing property is named where it belongs: "/message: is required".
    const missing = /^missing required property "(.*)"$/.exec(p.message)?.[1]
    const property = missing ?? p.property
    const where = `${prefix}${p.pointer}${property !== undefined ? `/${property}` : ''}` || 'body'
    return `${where}: ${missing !== undefined ? 'is required' : p.message}`
  })
  const first = problems[0] ?? `${prefix || 'body'}: is invalid`
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : ''
  throw new HttpError(400, `${first}${more}`, { problems })
}

/** Reads and drops whatever is left of the request body (the answer closes the connection). */
export function discardBody(ctx: Context): void {
  if (!ctx.req.complete) ctx.req.resume()
}

/**
 * How long, and how many bytes, a connection whose request body was refused keeps being read after
 * its answer: a client still sending when the server closes the connection would get a reset (TCP
 * RST for the unread bytes) instead of its 413 or 403.
 */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024
export const LINGER_MAX_MS = 5_000

/**
 * A lingering close for a request whose body was not read to its end: the answer goes out at once,
 * then the server ends its side (FIN) and keeps reading and dropping what the client still sends,
 * until the client ends its side or LINGER_MAX_BYTES / LINGER_MAX_MS is reached (as nginx's
 * lingering_close does). Node would otherwise destroy the socket right after the answer.
 */
export function lingerOnClose(ctx: Context): void {
  const req = ctx.req
  const socket = req.socket as (typeof req.socket & { destroySoon?: () => void }) | null
  if (req.complete || !socket || socket.destroyed) return
  socket.destroySoon = () => {
    socket.end()
    let seen = 0
    const timer = setTimeout(() => socket.destroy(), LINGER_MAX_MS)
    timer.unref()
    socket.on('data', (chunk: Buffer) => {
      seen += chunk.length
      if (seen > LINGER_MAX_BYTES) socket.destroy()
    })
    socket.once('end', () => socket.destroy())
    socket.once('close', () => clearTimeout(timer))
    socket.resume()
  }
}

function unsafeJson(value: unknown, pointer: string, depth: number): string | null {
  if (depth > JSON_MAX_DEPTH) return `${pointer || 'body'}: nested deeper than ${JSON_MAX_DEPTH} levels`
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return `${pointer || 'body'}: contains a NUL character`
    if (LONE_SURROGATE.test(value)) return `${pointer || 'body'}: contains an unpaired surrogate`
    return null
  }
  if (!value || typeof value !== 'object') return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = unsafeJson(value[i], `${pointer}/${i}`, depth + 1)
      if (p) return p
    }
    return null
  }
  for (const key of Object.keys(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (FORBIDDEN_KEYS.has(key)) return `${at}: the key "${key}" is not allowed`
    const bad =
      unsafeJson(key, at, depth) ?? unsafeJson((value as Record<string, unknown>)[key], at, depth + 1)
    if (bad) return bad
  }
  return null
}
