import { assertCan } from '../../../engine/control-center/content/permissions'
import { formatDefinitionError } from '../../../engine/snapshot/build-snapshot'
import type { ContentRepository } from '../../content/content-repository'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { RefMovedError } from '../../content/git/content-repo'
import type { LiveContent } from '../../content/live-content'
import { log } from '../../log'
import { audit, type StaffUser } from '../../store/auth-store'
import type { Db } from '../../store/db'
import { ContentError } from './content-errors'

/**
 * Moves `published` back from a refused commit to the one being served (docs/decisions/0610): a
 * compare-and-swap against the refused commit the publisher saw, audited as `live.restore`.
 */
export async function restoreLive(
  c: { repository: ContentRepository; live: LiveContent; db: Db },
  user: StaffUser,
  refused: string,
): Promise<{ from: string; to: string }> {
  assertCan(user, 'publish')
  const seen = c.live.refused
  const served = c.live.commit
  if (!seen || !served) throw new ContentError(409, 'live is not degraded: there is nothing to restore')
  if (seen.commit !== refused)
    throw new ContentError(
      409,
      `/refused: published's refused commit is ${seen.commit.slice(0, 12)}, not ${refused.slice(0, 12)}; reload`,
    )
  await c.repository.exclusive(async () => {
    try {
      await c.repository.moveRef(PUBLISHED_REF, served, refused)
    } catch (e) {
      if (e instanceof RefMovedError)
        throw new ContentError(
          409,
          `published moved since: it is no longer at ${refused.slice(0, 12)}; reload`,
        )
      throw e
    }
  })
  await audit(c.db, {
    actor: user.id,
    action: 'live.restore',
    target: PUBLISHED_REF,
    details: { from: refused, to: served, errors: seen.errors.map(formatDefinitionError) },
  })
  log('info', 'published restored to the served commit', { from: refused, to: served, by: user.id })
  await c.live.refresh()
  return { from: refused, to: served }
}
