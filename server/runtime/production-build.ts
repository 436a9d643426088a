/**
 * Which production build a server serves (docs/decisions/0332). `npm run build` writes each build into
 * a folder of its own, dist-<id>/, and then points the `dist` symlink at it; the compiled server is
 * dist-<id>/app/server.mjs (Node resolves the link, so its module path names its own folder).
 */
import { existsSync, realpathSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The build folder this server serves: the one its compiled code is in, else (the sources run through
 * tsx) the one `dist` names now. Resolved once at start: when `dist` moves on to a newer build, a
 * running server keeps serving its own, whole.
 */
export function productionBuildDir(projectRoot: string): string {
  const self = realpathSync(fileURLToPath(import.meta.url))
  if (/[\\/]app[\\/]server\.mjs$/.test(self)) return dirname(dirname(self))
  const dist = join(projectRoot, 'dist')
  return existsSync(dist) ? realpathSync(dist) : dist
}
