import type Router from '@koa/router'
import type { Context } from 'koa'
import { CC_AUDIT_PAGE_MAX, PREVIEW_BRANCH_PARAM, PREVIEW_GRANT_PARAM } from '../../../engine/constants'
import { can } from '../../../engine/control-center/content/permissions'
import type { ApiCcPreview } from '../../../schemas/generated/api-cc-preview'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import { clientOf } from '../../http/request-client'
import { audit } from '../../store/auth-store'
import { auditRowExists, readAuditLog } from '../store/audit-log-reader'
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
      // Time order (docs/decisions/0966): ids are reserved before their rows are written.
      if (before && !(await auditRowExists(store.db, before)))
        throw new HttpError(400, `?before: no audit row ${before}`)
      // Publishers and admins read all; others the rows about branches and their own.
      const rows = await readAuditLog(store.db, {
        actor: str('actor'),
        action: str('action'),
        branch: str('branch'),
        before,
        limitedTo: can(user, 'audit.read') ? null : user.id,
        limit,
      })
      // Names, not ids: the actor, and the target when it is a staff user (role changes, locks).
      const people = await content.queries.people(rows.flatMap((e) => [e.actor, e.target]))
      return {
        entries: rows.map((e) => ({
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
