/**
 * How `published` moved when no publication of the control center moved it (docs/decisions/0620):
 * through `git push` (the content repository's pre-receive hook noted the update it accepted) or by
 * hand on the server (no hook ran), and who pushed it — the commit's `Staff-Id` trailer when it has
 * one, else its committer.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PUSH_LOG } from './content-check'
import type { ContentRepository } from './content-repository'

/** `push`: through git push (the hook ran); `outside`: moved by hand, outside the control center. */
export type LiveMoveKind = 'push' | 'outside'

export interface LiveMove {
  kind: LiveMoveKind
  fastForward: boolean
  /** The pushed commit's committer, and its Staff-Id trailer when it has one. */
  committer: { name: string; email: string }
  staffId: string | null
}

/** A commit object's committer and its `Staff-Id:` trailer. */
export function commitIdentity(text: string): {
  committer: { name: string; email: string }
  staffId: string | null
} {
  const blank = text.indexOf('\n\n')
  const headers = blank < 0 ? text : text.slice(0, blank)
  const m = /^committer (.*) <([^>]*)> \d+ [+-]\d{4}$/m.exec(headers)
  const staffId = blank < 0 ? null : (/^Staff-Id: *(\S.*?)\s*$/m.exec(text.slice(blank))?.[1] ?? null)
  return { committer: { name: m?.[1] ?? '', email: m?.[2] ?? '' }, staffId }
}

/**
 * Whether the hook of the repository whose `published` holds the truth noted an accepted push of
 * `commit`: the local bare repository, or a remote given as a folder; null when it cannot be read
 * (a remote behind a URL).
 */
export function pushNoted(content: ContentRepository, commit: string): boolean | null {
  const dir = content.remote ? content.remote : content.repo.dir
  if (!existsSync(join(dir, 'HEAD'))) return null
  let log: string
  try {
    log = readFileSync(join(dir, PUSH_LOG), 'utf8')
  } catch {
    return false
  }
  return log.split('\n').some((l) => l.split(' ')[1] === commit)
}

/**
 * How published moved from `from` to `to` without a publication. When the hook's notes cannot be
 * read, a fast-forward counts as a push (a remote's hook refuses anything else) and a rewind as a
 * move by hand.
 */
export async function liveMove(
  content: ContentRepository,
  from: string | null,
  to: string,
): Promise<LiveMove> {
  const repo = content.repo
  const fastForward = !from || (await repo.isAncestor(from, to))
  const noted = pushNoted(content, to)
  const { committer, staffId } = commitIdentity((await repo.read(to))?.toString('utf8') ?? '')
  return { kind: (noted ?? fastForward) ? 'push' : 'outside', fastForward, committer, staffId }
}
