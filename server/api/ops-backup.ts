import type Router from '@koa/router'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { requireOpsChannel } from './ops-auth'
import { requireStore } from './require-store'

/** The header that tells `npm run backup` which commit this server served when it took the dump. */
export const LIVE_COMMIT_HEADER = 'x-live-commit'

/** …and how long the dump held the store's writer, in ms (docs/decisions/0724). */
export const WRITER_HELD_HEADER = 'x-writer-held-ms'

/**
 * For `npm run backup` while this server holds the PGlite folder (docs/decisions/0310): a dump of the
 * store taken between transactions, as a gzipped tarball.
 */
export function opsBackupApi(router: Router, deps: AppDeps): void {
  router.get('/api/_ops/store-dump', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    if (!store.db.dumpDataDir)
      throw new HttpError(
        409,
        'this server keeps its data in PostgreSQL: back it up with pg_dump or pg_basebackup',
      )
    const dump = await store.db.dumpDataDir()
    ctx.set('Cache-Control', 'no-store')
    ctx.set(WRITER_HELD_HEADER, String(Math.round(dump.writerHeldMs)))
    ctx.set(LIVE_COMMIT_HEADER, deps.liveCommit?.() ?? '')
    ctx.compress = false
    ctx.type = 'application/gzip'
    ctx.body = dump.archive
  })
}
