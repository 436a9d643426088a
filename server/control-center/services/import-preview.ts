/**
 * The preview grant `npm run content -- import` prints links with (docs/decisions/0616): one grant of
 * the imported branch, without drafts, for an active staff user (the one named, else the most
 * recently added), signed with the server's key and audited like the control center's grants.
 */
import { audit } from '../../store/auth-store'
import type { Queryable } from '../../store/db'
import type { PreviewGrants } from './preview-grants'

export class NoPreviewSignerError extends Error {}

export interface ImportPreview {
  token: string
  expiresAt: number
  /** The staff user the grant is for: it ends with their access. */
  email: string
}

async function signer(db: Queryable, email: string | undefined): Promise<{ id: string; email: string }> {
  if (email) {
    const r = await db.query<{ id: string; email: string }>(
      'SELECT id, email FROM staff_users WHERE email = $1 AND NOT disabled',
      [email.trim().toLowerCase()],
    )
    if (!r.rows[0]) throw new NoPreviewSignerError(`no active staff user ${email}`)
    return r.rows[0]
  }
  const r = await db.query<{ id: string; email: string }>(
    'SELECT id, email FROM staff_users WHERE NOT disabled ORDER BY created_at DESC, email LIMIT 1',
  )
  if (!r.rows[0])
    throw new NoPreviewSignerError(
      'no staff user yet: add one (FW_STAFF_PASSWORD=… npm run staff -- add EMAIL NAME --role publisher) for preview links',
    )
  return r.rows[0]
}

export async function mintImportPreview(
  db: Queryable,
  grants: PreviewGrants,
  branch: string,
  email?: string,
): Promise<ImportPreview> {
  const user = await signer(db, email)
  const { token, expiresAt } = grants.mint({ branch, userId: user.id, drafts: false })
  await audit(db, {
    actor: null,
    action: 'preview.grant',
    target: branch,
    details: { drafts: false, for: user.email, via: 'npm run content -- import' },
  })
  return { token, expiresAt, email: user.email }
}
