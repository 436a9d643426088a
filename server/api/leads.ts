import type Router from '@koa/router'
import type { Context } from 'koa'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { readJsonBody } from '../http/read-json'
import { leadStory } from '../store/lead-store'
import { erasePerson, personExport } from '../store/person-data'
import { requireOpsChannel } from './ops-auth'
import { requireStore } from './require-store'

/** Longest key `npm run leads` looks up (ids are at most 64 characters, an e-mail at most 254). */
export const LEAD_KEY_MAX = 256
const OPS_LEADS_BODY_LIMIT_BYTES = 4 * 1024

/** A lead key from a query value or a body field: present, trimmed, short, no control characters. */
export function leadKey(value: unknown, name = 'key'): string {
  const key = typeof value === 'string' ? value.trim() : ''
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!key || key.length > LEAD_KEY_MAX || /[\u0000-\u001f\u007f]/.test(key))
    throw new HttpError(
      400,
      `${name}: an e-mail address, phone number, session, anonymous or user id is required (at most ${LEAD_KEY_MAX} characters)`,
    )
  return key
}

async function bodyKey(ctx: Context): Promise<string> {
  const body = (await readJsonBody(ctx, OPS_LEADS_BODY_LIMIT_BYTES)) as { key?: unknown } | null
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'body: send a JSON object with "key"')
  return leadKey(body.key)
}

/**
 * For `npm run leads` while this server holds the PGlite folder (docs/decisions/0801, 0811): one
 * lead's story, every record held about a person, and a person's erasure.
 */
export function leadsApi(router: Router, deps: AppDeps): void {
  router.get('/api/_ops/leads', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    const key = leadKey(ctx.query.key)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await leadStory(store.db, key)
  })
  router.post('/api/_ops/leads/export', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await personExport(store.db, await bodyKey(ctx))
  })
  router.post('/api/_ops/leads/erase', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await erasePerson(store.db, await bodyKey(ctx), null)
  })
}
