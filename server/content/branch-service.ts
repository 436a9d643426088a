import { parseForDiff, valueAt } from '../../engine/content/json-diff'
import { ABSENT } from '../../engine/content/json-merge'
import { mergeJsonText } from '../../engine/content/merge-json-text'
import { assertCan } from '../../engine/content/permissions'
import { setField } from '../../engine/content/set-field'
import type { SnapshotResult } from '../../engine/snapshot/types'
import { hashString } from '../../engine/util/hash'
import { audit, auditWithId, nextAuditId, type StaffUser } from '../store/auth-store'
import type { Db } from '../store/db'
import { ContentError, type FileConflict, MergeConflictError } from './content-errors'
import type { ContentRepository } from './content-repository'
import { branchRef, checkBranchName, LIVE_BRANCH } from './git/branch-name'
import { checkRepoPath, type FileChange, RefMovedError } from './git/content-repo'
import type { BranchSnapshots } from './git-snapshot-source'
import { isUploadPath, refuseForeignUploads } from './uploaded-image-check'

/** Files staff may write through the control center (CONTROL-CENTER §2.1). */
export function checkWritablePath(path: string): void {
  checkRepoPath(path)
  if (!(/^definitions\/.+\.json$/.test(path) || /^ui\/public\/images\/uploads\/[^/]+$/.test(path)))
    throw new ContentError(
      400,
      `path "${path}" is not writable: only definitions/**/*.json and ui/public/images/uploads/*`,
    )
}

export interface Draft {
  path: string
  baseBlob: string | null
  text: string | null
  updatedAt: string
}

/** The commit message with the trailers that tie git history to the audit log. */
export function commitMessage(subject: string, user: StaffUser, auditId: string, body = ''): string {
  return `${subject.trim() || 'Update content'}\n\n${body ? `${body.trim()}\n\n` : ''}Staff-Id: ${user.id}\nAudit-Id: ${auditId}\n`
}

export const authorOf = (user: StaffUser) => ({ name: user.name, email: user.email })

/**
 * Branches, drafts and commits (CONTROL-CENTER §2.2, §2.5 A). Drafts are per user, branch and file
 * in the database; a commit turns any number of them into one git commit with a compare-and-swap on
 * the branch head. When the head moved, files nobody else touched commit on top; files changed on
 * both sides are merged by JSON pointer, and edits of the same field are a conflict.
 */
export class BranchService {
  constructor(
    readonly content: ContentRepository,
    readonly db: Db,
    readonly branches: BranchSnapshots,
  ) {}

  async head(branch: string): Promise<string> {
    const head = await this.content.head(branch)
    if (!head) throw new ContentError(404, `unknown branch "${branch}"`)
    return head
  }

  async createBranch(
    user: StaffUser,
    input: { name: string; title: string; description?: string; base?: string },
  ): Promise<{ name: string; head: string }> {
    assertCan(user, 'branch.create')
    checkBranchName(input.name)
    return this.content.exclusive(async () => {
      await this.content.sync()
      const base = input.base ?? LIVE_BRANCH
      const baseCommit = await this.content.head(base)
      if (!baseCommit) throw new ContentError(404, `unknown base branch "${base}"`)
      await this.#openBranch(input.name, baseCommit, {
        title: input.title,
        description: input.description ?? '',
        baseCommit,
        createdBy: user.id,
      })
      await audit(this.db, {
        actor: user.id,
        action: 'branch.create',
        target: input.name,
        details: { base, commit: baseCommit },
      })
      return { name: input.name, head: baseCommit }
    })
  }

  /**
   * "Revert only this publication" (CONTROL-CENTER §2.6): a new branch off live with one commit that
   * undoes just that publication, by the three-way merge of its parent into live (base: what it
   * published). Fields a later publication changed again are a conflict (409, listed by pointer):
   * nothing is created then.
   */
  async revertPublication(
    user: StaffUser,
    publication: string,
  ): Promise<{ name: string; head: string; paths: string[] }> {
    assertCan(user, 'branch.create')
    const r = await this.db.query<{ old_commit: string | null; new_commit: string }>(
      'SELECT old_commit, new_commit FROM content_publications WHERE id = $1',
      [publication],
    )
    const row = r.rows[0]
    if (!row) throw new ContentError(404, `unknown publication ${publication}`)
    if (!row.old_commit) throw new ContentError(400, `publication ${publication} has nothing before it`)
    const name = `revert-${publication}`
    const [published, parent] = [row.new_commit, row.old_commit]
    return this.content.exclusive(async () => {
      await this.content.sync()
      const repo = this.content.repo
      const live = await this.head(LIVE_BRANCH)
      const changes: FileChange[] = []
      const conflicts: FileConflict[] = []
      for (const path of await repo.changedPaths(parent, published)) {
        const [b, t, m] = [
          await repo.readText(`${published}:${path}`),
          await repo.readText(`${live}:${path}`),
          await repo.readText(`${parent}:${path}`),
        ]
        if (t === b) changes.push({ path, content: await repo.read(`${parent}:${path}`) })
        else if (t === m) continue
        else if (path.endsWith('.json')) {
          const merged = mergeJsonText(b, t, m)
          if (!merged.ok) conflicts.push({ path, conflicts: merged.conflicts })
          else if (merged.text !== t) changes.push({ path, content: merged.text })
        } else conflicts.push({ path, conflicts: [{ pointer: '', base: b, theirs: t, mine: m }] })
      }
      if (conflicts.length)
        throw new MergeConflictError(
          conflicts,
          `later publications changed the same fields as publication ${publication}; revert by hand on a branch`,
        )
      if (!changes.length)
        throw new ContentError(
          409,
          `nothing to revert: live no longer has publication ${publication}'s changes`,
        )
      const auditId = await nextAuditId(this.db)
      const commit = await repo.commitFiles(
        live,
        changes,
        commitMessage(`Revert publication #${publication}`, user, auditId, `Undoes ${parent}..${published}.`),
        authorOf(user),
      )
      await this.#openBranch(name, commit, {
        title: `Revert publication #${publication}`,
        description: `Undoes ${parent.slice(0, 7)}..${published.slice(0, 7)}.`,
        baseCommit: live,
        createdBy: user.id,
      })
      const paths = changes.map((c) => c.path)
      await auditWithId(this.db, auditId, {
        actor: user.id,
        action: 'publication.revert',
        target: name,
        details: { publication, paths, from: live, to: commit },
      })
      return { name, head: commit, paths }
    })
  }

  /**
   * Autosaves a draft (null text: delete the file); the base blob is the file's when editing began,
   * or at `base`, a commit of the branch (a merge resolution written on the head its conflict named).
   */
  async saveDraft(
    user: StaffUser,
    branch: string,
    path: string,
    text: string | null,
    base?: string,
  ): Promise<{ draftsHash: string }> {
    if (branch === LIVE_BRANCH) throw new ContentError(400, 'live is read-only: create a branch to save')
    checkWritablePath(path)
    if (isUploadPath(path))
      throw new ContentError(
        400,
        `path "${path}": uploaded images are written only by the image upload (the images screen), not by drafts`,
      )
    assertCan(user, 'branch.edit', { paths: [path] })
    const head = await this.head(branch)
    if (base && base !== head && !(await this.content.repo.isAncestor(base, head).catch(() => false)))
      throw new ContentError(400, `/base: ${base} is not a commit of branch "${branch}"`)
    const baseBlob = await this.content.repo.blobAt(base ?? head, path)
    await this.db.query(
      `INSERT INTO cc_drafts (user_id, branch, path, base_blob, text) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, branch, path) DO UPDATE SET text = $5, updated_at = now()${
         base ? ', base_blob = $4' : ''
       }`,
      [user.id, branch, path, baseBlob, text],
    )
    return { draftsHash: await this.draftsHash(user.id, branch) }
  }

  async discardDraft(user: StaffUser, branch: string, path: string): Promise<void> {
    await this.db.query('DELETE FROM cc_drafts WHERE user_id = $1 AND branch = $2 AND path = $3', [
      user.id,
      branch,
      path,
    ])
  }

  async drafts(userId: string, branch: string): Promise<Draft[]> {
    const r = await this.db.query<{
      path: string
      base_blob: string | null
      text: string | null
      updated_at: Date | string
    }>(
      'SELECT path, base_blob, text, updated_at FROM cc_drafts WHERE user_id = $1 AND branch = $2 ORDER BY path',
      [userId, branch],
    )
    return r.rows.map((d) => ({
      path: d.path,
      baseBlob: d.base_blob,
      text: d.text,
      updatedAt: new Date(d.updated_at).toISOString(),
    }))
  }

  /** A hash of a user's drafts on a branch: with the head commit, it keys the branch snapshot. */
  async draftsHash(userId: string, branch: string): Promise<string> {
    const drafts = await this.drafts(userId, branch)
    return drafts.length ? hashString(drafts.map((d) => `${d.path}\0${d.text ?? '\u0001'}`).join('\0\0')) : ''
  }

  /** The snapshot of a branch head, with a user's drafts laid over it when given (cached by commit + drafts). */
  async snapshot(
    branch: string,
    userId?: string,
  ): Promise<{ commit: string; draftsHash: string; result: SnapshotResult }> {
    const commit = await this.head(branch)
    const drafts = userId ? await this.drafts(userId, branch) : []
    const draftsHash = drafts.length
      ? hashString(drafts.map((d) => `${d.path}\0${d.text ?? '\u0001'}`).join('\0\0'))
      : ''
    const overlay = new Map(drafts.map((d) => [d.path, d.text]))
    return { commit, draftsHash, result: await this.branches.get(commit, overlay, draftsHash || undefined) }
  }

  /**
   * Commits the user's drafts (all, or those of `paths`) as one commit. `expectedHead` is the head
   * the user edited on; if it moved, untouched files commit on top and the rest are merged by
   * pointer (MergeConflictError, 409, when the same field changed on both sides).
   */
  async commit(
    user: StaffUser,
    branch: string,
    input: { message: string; expectedHead: string; paths?: string[] },
  ): Promise<{ commit: string; parent: string; merged: string[]; paths: string[] }> {
    if (branch === LIVE_BRANCH) throw new ContentError(400, 'live is read-only: create a branch to commit')
    const all = await this.drafts(user.id, branch)
    const drafts = input.paths ? all.filter((d) => input.paths!.includes(d.path)) : all
    const missing = (input.paths ?? []).filter((p) => !all.some((d) => d.path === p))
    if (missing.length) throw new ContentError(400, `no draft of ${missing.join(', ')} on branch "${branch}"`)
    if (!drafts.length) throw new ContentError(400, `nothing to commit: no drafts on branch "${branch}"`)
    assertCan(user, 'branch.edit', { paths: drafts.map((d) => d.path) })
    const result = await this.content.exclusive(async () => {
      for (let attempt = 0; ; attempt++) {
        // The push's lease catches a stale local head, so fetch only when retrying (saves a round trip).
        if (attempt > 0) await this.content.sync()
        const head = await this.head(branch)
        // Even on the expected head, a draft written on an older version of its file (an editor
        // reloaded since) is merged: its base, not the head the editor shows, says what it changes.
        const { changes, merged } = await this.#rebase(head, drafts)
        await refuseForeignUploads(changes, (path) => this.content.repo.read(`${head}:${path}`))
        const auditId = await nextAuditId(this.db)
        const commit = await this.content.repo.commitFiles(
          head,
          changes,
          commitMessage(input.message, user, auditId),
          authorOf(user),
        )
        try {
          await this.content.moveRef(branchRef(branch), commit, head)
        } catch (e) {
          // Someone committed between our read and our swap: merge again on their head.
          if (e instanceof RefMovedError && attempt < 2) continue
          throw e
        }
        await auditWithId(this.db, auditId, {
          actor: user.id,
          action: 'commit',
          target: branch,
          details: { paths: changes.map((c) => c.path), from: head, to: commit, merged },
        })
        return { commit, parent: head, merged, paths: changes.map((c) => c.path) }
      }
    })
    // Drafts committed are gone; a draft changed meanwhile (newer text) stays.
    for (const d of drafts)
      await this.db.query(
        'DELETE FROM cc_drafts WHERE user_id = $1 AND branch = $2 AND path = $3 AND text IS NOT DISTINCT FROM $4',
        [user.id, branch, d.path, d.text],
      )
    return result
  }

  /** Changes a branch's title or description. */
  async update(
    user: StaffUser,
    branch: string,
    input: { title?: string; description?: string },
  ): Promise<void> {
    assertCan(user, 'branch.edit')
    await this.head(branch)
    await this.db.query(
      `UPDATE cc_branches SET title = COALESCE($2, title), description = COALESCE($3, description) WHERE name = $1`,
      [branch, input.title ?? null, input.description ?? null],
    )
    await audit(this.db, { actor: user.id, action: 'branch.update', target: branch, details: input })
  }

  /** Archives a branch: its ref moves to refs/archive/cc/<name>-<ts> (kept, never deleted). */
  async archive(user: StaffUser, branch: string): Promise<{ ref: string; head: string }> {
    if (branch === LIVE_BRANCH) throw new ContentError(400, 'live cannot be archived')
    const r = await this.db.query<{ created_by: string | null }>(
      'SELECT created_by FROM cc_branches WHERE name = $1',
      [branch],
    )
    assertCan(user, 'branch.archive', { branchCreatedBy: r.rows[0]?.created_by ?? undefined })
    return this.content.exclusive(async () => {
      await this.content.sync()
      const head = await this.head(branch)
      const archived = `refs/archive/cc/${branch}-${Date.now()}`
      await this.content.moveRef(archived, head, null)
      await this.content.removeRef(branchRef(branch), head)
      await this.db.query(
        `UPDATE cc_branches SET status = 'archived', scheduled_at = NULL, scheduled_commit = NULL WHERE name = $1`,
        [branch],
      )
      await this.db.query('DELETE FROM cc_drafts WHERE branch = $1', [branch])
      await audit(this.db, {
        actor: user.id,
        action: 'branch.archive',
        target: branch,
        details: { head, ref: archived },
      })
      return { ref: archived, head }
    })
  }

  /**
   * A review of the branch head: an approval is pinned to that commit (a new commit resets it to
   * "needs review"); "request-changes" and "request" set the status back.
   */
  async review(
    user: StaffUser,
    branch: string,
    input: {
      decision: 'approve' | 'request-changes' | 'request'
      comment?: string
      requireApproval?: boolean
    },
  ): Promise<void> {
    const head = await this.head(branch)
    if (input.decision === 'request') assertCan(user, 'branch.edit')
    else {
      const [last] = await this.content.repo.log(head, 1)
      const lastBy = /^Staff-Id: (.+)$/m.exec(last?.body ?? '')?.[1]
      assertCan(user, 'branch.approve', { lastCommitBy: lastBy, requireApproval: input.requireApproval })
    }
    const [status, approved] =
      input.decision === 'approve'
        ? ['approved', head]
        : input.decision === 'request'
          ? ['in_review', null]
          : ['open', null]
    await this.db.query(
      `UPDATE cc_branches SET status = $2, approved_commit = $3, approved_by = $4 WHERE name = $1`,
      [branch, status, approved, approved ? user.id : null],
    )
    await audit(this.db, {
      actor: user.id,
      action:
        input.decision === 'approve'
          ? 'review.approve'
          : input.decision === 'request'
            ? 'review.request'
            : 'review.changes-requested',
      target: branch,
      details: { commit: head, comment: input.comment ?? '' },
    })
  }

  /**
   * "Update from live": merges live into the branch as a merge commit (CONTROL-CENTER §2.5 B).
   * Files changed on one side take that side; files changed on both merge by pointer, and each
   * conflicting pointer needs a resolution (`theirs` = live, `mine` = the branch), else 409.
   */
  async mergeLive(
    user: StaffUser,
    branch: string,
    input: {
      expectedHead: string
      resolutions?: { path: string; pointer: string; take: 'theirs' | 'mine' }[]
    },
  ): Promise<{ commit: string; merged: string[]; upToDate?: boolean }> {
    if (branch === LIVE_BRANCH) throw new ContentError(400, 'live is read-only: create a branch to save')
    assertCan(user, 'branch.edit')
    return this.content.exclusive(async () => {
      await this.content.sync()
      const repo = this.content.repo
      const head = await this.head(branch)
      if (head !== input.expectedHead)
        throw new ContentError(
          409,
          `branch "${branch}" changed since you opened it: head is ${head.slice(0, 12)}`,
        )
      const live = await this.content.live()
      if (!live) throw new ContentError(409, 'nothing is published yet')
      if (await repo.isAncestor(live, head)) return { commit: head, merged: [], upToDate: true }
      const base = await repo.mergeBase(live, head)
      if (!base) throw new ContentError(409, `branch "${branch}" shares no history with live`)
      const ours = new Set(await repo.changedPaths(base, head))
      const changes: FileChange[] = []
      const merged: string[] = []
      const conflicts: FileConflict[] = []
      const resolutions = input.resolutions ?? []
      for (const path of await repo.changedPaths(base, live)) {
        const theirs = await repo.read(`${live}:${path}`)
        if (!ours.has(path)) {
          changes.push({ path, content: theirs })
          continue
        }
        let [b, t, m] = [
          await repo.readText(`${base}:${path}`),
          theirs?.toString('utf8') ?? null,
          await repo.readText(`${head}:${path}`),
        ]
        // A resolution makes one side agree with the other at its pointer: `theirs` sets mine to
        // live's value there; `mine` sets the base to live's value, so only mine changed it.
        for (const r of resolutions.filter((x) => x.path === path)) {
          if (r.pointer === '') {
            if (r.take === 'theirs') m = t
            else b = t
            continue
          }
          if (t === null || m === null || b === null) continue
          const tv = valueAt(parseForDiff(t), r.pointer)
          if (r.take === 'theirs') m = setField(m, r.pointer, tv === ABSENT ? undefined : tv)
          else b = setField(b, r.pointer, tv === ABSENT ? undefined : tv)
        }
        const r = path.endsWith('.json')
          ? mergeJsonText(b, t, m)
          : t === m
            ? { ok: true as const, text: m as string }
            : { ok: false as const, conflicts: [{ pointer: '', base: b, theirs: t, mine: m }] }
        if (r.ok) {
          if (r.text !== m) changes.push({ path, content: r.text })
          merged.push(path)
        } else conflicts.push({ path, conflicts: r.conflicts })
      }
      if (conflicts.length)
        throw new MergeConflictError(
          conflicts,
          `live changed the same fields as branch "${branch}"; choose a side for each`,
        )
      const auditId = await nextAuditId(this.db)
      const commit = await repo.commitFiles(
        head,
        changes,
        commitMessage('Update from live', user, auditId, `Merge of live ${live} into ${branch}.`),
        authorOf(user),
        [live],
      )
      await this.content.moveRef(branchRef(branch), commit, head)
      await auditWithId(this.db, auditId, {
        actor: user.id,
        action: 'merge-live',
        target: branch,
        details: { from: head, to: commit, live, merged, resolutions: resolutions.length },
      })
      return { commit, merged }
    })
  }

  /** Drafts made on an older head, replayed on `head`: untouched files as they are, the rest merged. */
  /**
   * Creates the branch's ref at `head` (409 when the branch exists) and its open cc_branches row
   * (an archived row of the same name is reopened).
   */
  async #openBranch(
    name: string,
    head: string,
    row: { title: string; description: string; baseCommit: string; createdBy: string },
  ): Promise<void> {
    try {
      await this.content.moveRef(branchRef(name), head, null)
    } catch (e) {
      if (e instanceof RefMovedError) throw new ContentError(409, `branch "${name}" already exists`)
      throw e
    }
    await this.db.query(
      `INSERT INTO cc_branches (name, title, description, base_commit, created_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (name) DO UPDATE SET title = $2, description = $3, base_commit = $4, created_by = $5, status = 'open'`,
      [name, row.title, row.description, row.baseCommit, row.createdBy],
    )
  }

  async #rebase(head: string, drafts: Draft[]): Promise<{ changes: FileChange[]; merged: string[] }> {
    const repo = this.content.repo
    const changes: FileChange[] = []
    const merged: string[] = []
    const conflicts: FileConflict[] = []
    for (const d of drafts) {
      const theirsBlob = await repo.blobAt(head, d.path)
      if (theirsBlob === d.baseBlob) {
        changes.push({ path: d.path, content: d.text })
        continue
      }
      const base = d.baseBlob ? await repo.readText(d.baseBlob) : null
      const theirs = theirsBlob ? await repo.readText(theirsBlob) : null
      const r = d.path.endsWith('.json')
        ? mergeJsonText(base, theirs, d.text)
        : { ok: false as const, conflicts: [{ pointer: '', base, theirs, mine: d.text }] }
      if (r.ok) {
        changes.push({ path: d.path, content: r.text })
        merged.push(d.path)
      } else conflicts.push({ path: d.path, conflicts: r.conflicts, texts: { base, theirs, mine: d.text } })
    }
    if (conflicts.length)
      throw new MergeConflictError(
        conflicts,
        'the branch changed the same fields since you started editing',
        head,
      )
    return { changes, merged }
  }
}
