import type { Context } from 'koa'
import { describeErrors, validatorFor } from '../../engine/definitions/validators'

/** Keys that could reach an object's prototype if some code ever merged the body into an object. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])
const MAX_DEPTH = 32
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Reads a JSON body of at most `limit` bytes. Throws a 4xx naming the problem: 413 over the limit,
 * 400 for text that is not JSON, for a prototype key, a NUL character or a broken surrogate (which
 * PostgreSQL refuses to store), or for nesting deeper than MAX_DEPTH.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > limit) ctx.throw(413, `body is ${declared} bytes; the limit is ${limit} bytes`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length
    if (size > limit) {
      ctx.req.resume()
      ctx.throw(413, `body is over the limit of ${limit} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text.trim()) ctx.throw(400, 'body is empty; expected JSON')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    ctx.throw(400, `body is not valid JSON: ${(e as Error).message}`)
  }
  const problem = unsafeJson(value, '', 0)
  if (problem) ctx.throw(400, problem)
  return value
}

function unsafeJson(value: unknown, pointer: string, depth: number): string | null {
  if (depth > MAX_DEPTH) return `${pointer || 'body'}: nested deeper than ${MAX_DEPTH} levels`
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

/** Validates against a schema in schemas/; throws 400 naming the first field at fault (and how many more). */
export function assertSchema<T>(ctx: Context, schemaFile: string, value: unknown, prefix = ''): T {
  const validate = validatorFor(schemaFile)
  if (!validate(value)) {
    const problems = describeErrors(validate.errors ?? [])
    const first = problems[0]
    const where = `${prefix}${first?.pointer ?? ''}${first?.property ? `/${first.property}` : ''}` || 'body'
    const more =
      problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : ''
    ctx.throw(400, `${where}: ${first?.message ?? 'is invalid'}${more}`)
  }
  return value as T
}
