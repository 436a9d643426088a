import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { toPosix } from '../read-definitions'
import { type ContentRepo, checkRepoPath } from './content-repo'

/** Folders of the content repository and where they come from in the code repository. */
export const CONTENT_DEFINITIONS = 'definitions'
export const CONTENT_IMAGES = 'ui/public/images'

function walk(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = []
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) out.push(...walk(full, keep))
    else if (keep(name)) out.push(full)
  }
  return out
}

export interface WorkingTreeSource {
  projectRoot: string
  /** The definitions folder (DEFINITIONS_DIR); stored as `definitions/` in the content repository. */
  definitionsDir: string
}

/** The code repository's commit, for the import message; null outside a git checkout. */
function codeCommit(projectRoot: string): string | null {
  const r = spawnSync('git', ['-C', projectRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : null
}

/** The working tree's files of the content repository: full path, and path in the repository. */
export function workingTreeFiles(src: WorkingTreeSource): { full: string; path: string }[] {
  return [
    ...walk(src.definitionsDir, (n) => n.endsWith('.json')).map((full) => ({
      full,
      path: `${CONTENT_DEFINITIONS}/${toPosix(relative(src.definitionsDir, full))}`,
    })),
    ...walk(join(src.projectRoot, CONTENT_IMAGES), (n) => !n.startsWith('.')).map((full) => ({
      full,
      path: toPosix(relative(src.projectRoot, full)),
    })),
  ]
}

/**
 * Commits the working tree's definitions (and public images) as one commit whose tree holds
 * exactly those files; `parent` null makes a root commit.
 */
export async function commitWorkingTree(
  repo: ContentRepo,
  src: WorkingTreeSource,
  parent: string | null,
  subject: string,
): Promise<string> {
  const files = workingTreeFiles(src)
  for (const f of files) checkRepoPath(f.path)
  const blobs = await repo.writeBlobsFromPaths(files.map((f) => f.full))
  const tree = await repo.writeTree(
    null,
    files.map((f, i) => ({ path: f.path, blob: blobs[i] })),
  )
  const code = codeCommit(src.projectRoot)
  const message = `${subject}\n\nImported from the code repository${code ? ` at ${code}` : ''}.\n`
  return repo.commitTree(tree, parent ? [parent] : [], message)
}

/** Writes a commit's definitions (and images) into the working tree, removing files it no longer has. */
export async function exportToWorkingTree(
  repo: ContentRepo,
  commit: string,
  src: WorkingTreeSource,
): Promise<{ written: number; removed: number }> {
  const entries = await repo.lsTree(commit, [CONTENT_DEFINITIONS, CONTENT_IMAGES])
  const target = (path: string) =>
    path.startsWith(`${CONTENT_DEFINITIONS}/`)
      ? join(src.definitionsDir, path.slice(CONTENT_DEFINITIONS.length + 1))
      : join(src.projectRoot, path)
  const wanted = new Set(entries.map((e) => target(e.path)))
  let removed = 0
  for (const full of [
    ...walk(src.definitionsDir, (n) => n.endsWith('.json')),
    ...walk(join(src.projectRoot, CONTENT_IMAGES), (n) => !n.startsWith('.')),
  ]) {
    if (!wanted.has(full)) {
      unlinkSync(full)
      removed++
    }
  }
  for (const e of entries) {
    const data = await repo.read(e.sha)
    if (!data) throw new Error(`blob ${e.sha} of ${e.path} is missing`)
    const full = target(e.path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, data)
  }
  return { written: entries.length, removed }
}
