import type Router from '@koa/router'
import type { Context } from 'koa'
import { CC_AUDIT_PAGE_MAX, PREVIEW_BRANCH_PARAM, PREVIEW_GRANT_PARAM } from '../../../engine/constants'
import { can } from '../../../engine/content/permissions'
import type { ApiCcPreview } from '../../../schemas/generated/api-cc-preview'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import { clientOf } from '../../http/request-client'
import { audit } from '../../store/auth-store'
import { checkText } from './cc-input'
import { ccRoute } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** The origin a brand is previewed on: its own `<id>.localhost` next to a local control center, else its URL. */
export function brandOrigin(ctx: Context, brand: { id: string; url: string }): string {
  const { host, protocol } = clientOf(ctx)
  const local = /^[^.:]+\.localhost(:\d+)?$/.exec(host)
  if (local) return `${protocol}://${brand.id}.localhost${local[1] ?? ''}`
  return new URL(brand.url).origin
}

/** Preview grants (docs/decisions/0601) and the activity log. */
export function registerPreviewActivityApi(router: Router, deps: AppDeps): void {
  router.post(
    '/api/cc/previews',
    ccRoute(deps, 'CcPreviewGrant', async (ctx, { user, content, store, ip }) => {
      const input = await readCcBody<ApiCcPreview>(ctx, CC_SCHEMAS.preview)
      if (input.path !== undefined) checkText('/path', input.path)
      const commit = await content.branches.head(input.branch)
      const brands = [...deps.snapshots.current.brands.values()].filter((b) => b.vertical !== 'internal')
      const chosen = input.brand ? brands.filter((b) => b.id === input.brand) : brands
      if (!chosen.length) throw new HttpError(400, `/brand: unknown brand "${input.brand}"`)
      const drafts = input.drafts ?? true
      const { token, expiresAt } = content.previews.mint({ branch: input.branch, userId: user.id, drafts })
      await audit(store.db, {
        actor: user.id,
        action: 'preview.grant',
        target: input.branch,
        details: { drafts, brand: input.brand ?? null, path: input.path ?? null, commit },
        ip,
      })
      const query = new URLSearchParams({
        [PREVIEW_BRANCH_PARAM]: input.branch,
        [PREVIEW_GRANT_PARAM]: token,
      })
      return {
        token,
        expiresAt: new Date(expiresAt).toISOString(),
        commit,
        urls: Object.fromEntries(
          chosen.map((b) => [b.id, `${brandOrigin(ctx, b)}${input.path ?? '/'}?${query}`]),
        ),
      }
    }),
  )

  router.get(
    '/api/cc/audit',
    ccRoute(deps, 'CcAuditPage', async (ctx, { user, content, store }) => {
      const q = ctx.query
      const str = (k: string) => (typeof q[k] === 'string' && q[k] ? (q[k] as string) : null)
      const limit = Math.min(Number(str('limit') ?? 100) || 100, CC_AUDIT_PAGE_MAX)
      const before = str('before')
      if (before !== null && !/^\d{1,18}$/.test(before))
        throw new HttpError(400, '?before: must be an audit row id')
      const where: string[] = []
      const args: unknown[] = []
      const add = (sql: string, v: unknown) => {
        args.push(v)
        where.push(sql.replace('?', `$${args.length}`))
      }
      if (str('actor')) add('actor = ?', str('actor'))
      if (str('action')) add('action = ?', str('action'))
      if (str('branch')) add('target = ?', str('branch'))
      // Time order (docs/decisions/0966): ids are reserved before their rows are written.
      if (before) {
        const cursor = await store.db.query('SELECT 1 FROM audit_log WHERE id = $1::bigint', [before])
        if (!cursor.rows.length) throw new HttpError(400, `?before: no audit row ${before}`)
        add('(at, id) < (SELECT at, id FROM audit_log WHERE id = ?::bigint)', before)
      }
      // Publishers and admins read all; others the rows about branches and their own.
      if (!can(user, 'audit.read')) {
        args.push(user.id)
        where.push(
          `(actor = $${args.length} OR action LIKE 'branch.%' OR action IN ('commit', 'merge-live', 'publish', 'rollback', 'publish.scheduled-fired') OR action LIKE 'review.%')`,
        )
      }
      args.push(limit)
      const r = await store.db.query<{
        id: string
        at: Date | string
        actor: string | null
        action: string
        target: string | null
        details: unknown
        ip: string | null
      }>(
        `SELECT id::text AS id, at, actor, action, target, details, ip FROM audit_log
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT $${args.length}`,
        args,
      )
      // Names, not ids: the actor, and the target when it is a staff user (role changes, locks).
      const people = await content.queries.people(r.rows.flatMap((e) => [e.actor, e.target]))
      return {
        entries: r.rows.map((e) => ({
          id: e.id,
          at: new Date(e.at).toISOString(),
          actor: e.actor
            ? (people.get(e.actor) ?? { id: e.actor, name: e.actor, email: '', role: '' })
            : null,
          action: e.action,
          target: e.target,
          targetName: (e.target && people.get(e.target)?.name) || null,
          details: typeof e.details === 'string' ? JSON.parse(e.details) : e.details,
          ip: can(user, 'audit.read') ? e.ip : null,
        })),
      }
    }),
  )
}
