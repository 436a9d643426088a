/**
 * The check a commit must pass to be live (docs/decisions/0610): the full validation of its
 * definitions and the blocking publish gates against what was live before it, with the
 * `file:line:col  /pointer  message` errors of `npm run validate`. The content repository's
 * pre-receive hook, `npm run content -- check` and the live content all run this one check.
 */

import { GATE_TIME_BUDGET_MS } from '../../engine/control-center/gates/gate-constants'
import { blockingGates } from '../../engine/control-center/gates/publish-gates'
import { LocatedJson } from '../../engine/definitions/locate'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionError, Snapshot } from '../../engine/snapshot/types'
import { buildContentSnapshot } from './build-content-snapshot'
import { BRANCH_NAME, PUBLISHED_REF, STAFF_BRANCH_PREFIX } from './git/branch-name'
import { ZERO_SHA } from './git/content-repo'
import type { GitSnapshotSource } from './git-snapshot-source'

export interface CommitCheck {
  errors: DefinitionError[]
  /** The commit's snapshot when it passed. */
  snapshot: Snapshot | null
}

/**
 * Validates `commit` and runs the blocking gates against `before` (the snapshot live had before it;
 * null: every funnel counts as changed).
 */
export async function checkCommit(
  source: GitSnapshotSource,
  commit: string,
  before: Snapshot | null,
  budgetMs = GATE_TIME_BUDGET_MS,
): Promise<CommitCheck> {
  const { files, assets } = await source.files(commit)
  const result = buildContentSnapshot(files, source.assetCheck(assets))
  if (!result.ok) return { errors: result.errors, snapshot: null }
  const texts = new Map(files.map((f) => [f.path, f.text]))
  const located = new Map<string, LocatedJson>()
  const locate = (file: string, pointer: string) => {
    const text = texts.get(file)
    if (text === undefined) return undefined
    const at = located.get(file) ?? new LocatedJson(text)
    located.set(file, at)
    return at.positionOf(pointer)
  }
  const errors = await blockingGates(before, result.snapshot, { locate, budgetMs })
  return { errors, snapshot: errors.length ? null : result.snapshot }
}

/** The snapshot of a commit when it builds, else null (what the gates compare a candidate with). */
export async function snapshotOrNull(
  source: GitSnapshotSource,
  commit: string | null,
): Promise<Snapshot | null> {
  if (!commit || commit === ZERO_SHA) return null
  const r = await source.build(commit).catch(() => null)
  return r?.ok ? r.snapshot : null
}

/** Syntax errors of the JSON files a staff branch's commit changes since `old` (every file when new). */
export async function checkJsonSyntax(
  source: GitSnapshotSource,
  commit: string,
  old: string | null,
): Promise<DefinitionError[]> {
  const repo = source.repo
  const changed =
    old && old !== ZERO_SHA
      ? new Set(await repo.changedPaths(old, commit))
      : new Set((await repo.lsTree(commit)).map((e) => e.path))
  const errors: DefinitionError[] = []
  for (const path of [...changed].filter((p) => p.endsWith('.json')).sort()) {
    const text = await repo.readText(`${commit}:${path}`)
    if (text === null) continue // deleted
    const first = new LocatedJson(text).syntaxErrors[0]
    if (first) errors.push({ file: path, ...first.position, pointer: '', message: first.message })
  }
  return errors
}

/** One line of a pre-receive hook's input: `<old> <new> <ref>`. */
export interface RefUpdate {
  old: string
  next: string
  ref: string
}

export interface PushRefusal {
  ref: string
  commit: string
  reason: string
  errors: DefinitionError[]
}

export function parseRefUpdates(stdin: string): RefUpdate[] {
  return stdin
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length === 3)
    .map(([old, next, ref]) => ({ old, next, ref }))
}

/** Where the pre-receive hook notes each `published` update it accepted (in the bare repository). */
export const PUSH_LOG = 'funnelworks-pushes.log'

/** The server's own archive refs (branch-service.ts archive()): `refs/archive/cc/<branch>-<ms>`. */
const ARCHIVE_REF = /^refs\/archive\/cc\/([a-z0-9][a-z0-9-]{0,62})-(\d{13})$/

/** What the content repository takes: the one line a refused ref gets (docs/decisions/0620). */
export const ONLY_CONTENT_REFS =
  'only refs/heads/published, refs/heads/cc/<branch> and the server’s own refs/archive/cc/<branch>-<time> may be pushed to the content repository'

/** Where a publisher goes back to an earlier live, recorded (the message of a refused rewind). */
export const ROLLBACK_HINT =
  'to put live back, use "Roll back to before this" in the control center’s Live history (Branches → Live history), which records the rollback as a publication'

/**
 * What a push may not do (the pre-receive hook): put a commit on `published` that fails the check
 * against the commit it replaces, move it anywhere but forward (unless off a commit that itself fails
 * the check: the control center's Restore live), delete it, put JSON that does not parse on a staff
 * branch, or touch any other ref — an archive ref only as the server makes one: new, at the head of
 * the staff branch it names.
 */
export async function checkPush(
  source: GitSnapshotSource,
  updates: readonly RefUpdate[],
  budgetMs = GATE_TIME_BUDGET_MS,
): Promise<PushRefusal[]> {
  const refusals: PushRefusal[] = []
  const refuse = (u: RefUpdate, reason: string, errors: DefinitionError[] = []) =>
    refusals.push({ ref: u.ref, commit: u.next, reason, errors })
  const repo = source.repo
  for (const u of updates) {
    if (u.ref === PUBLISHED_REF) {
      if (u.next === ZERO_SHA) {
        refuse(u, 'published may not be deleted')
        continue
      }
      const before = await snapshotOrNull(source, u.old)
      if (u.old !== ZERO_SHA && !(await repo.isAncestor(u.old, u.next))) {
        // A rewind off a commit that never could be live (the control center's Restore live) is fine.
        const oldFails = (await checkCommit(source, u.old, null, budgetMs)).errors.length > 0
        if (!oldFails) {
          refuse(u, `not a fast-forward of published (${u.old.slice(0, 12)}): ${ROLLBACK_HINT}`)
          continue
        }
      }
      const { errors } = await checkCommit(source, u.next, before, budgetMs)
      if (errors.length) refuse(u, refusedReason(errors), errors)
    } else if (u.ref.startsWith(STAFF_BRANCH_PREFIX)) {
      if (!BRANCH_NAME.test(u.ref.slice(STAFF_BRANCH_PREFIX.length))) {
        refuse(u, `a staff branch name is 1–63 lower-case letters, digits or dashes; ${ONLY_CONTENT_REFS}`)
        continue
      }
      if (u.next === ZERO_SHA) continue
      const errors = await checkJsonSyntax(source, u.next, u.old)
      if (errors.length)
        refuse(
          u,
          `${errors.length} file${errors.length === 1 ? '' : 's'} that ${errors.length === 1 ? 'is' : 'are'} not valid JSON`,
          errors,
        )
    } else {
      const archive = ARCHIVE_REF.exec(u.ref)
      const head = archive ? await repo.resolve(`${STAFF_BRANCH_PREFIX}${archive[1]}`) : null
      if (!archive || u.old !== ZERO_SHA || u.next === ZERO_SHA || head !== u.next)
        refuse(
          u,
          archive
            ? 'an archive ref is only made by the server, new, at the head of the branch it archives'
            : ONLY_CONTENT_REFS,
        )
    }
  }
  return refusals
}

export const refusedReason = (errors: readonly DefinitionError[]) =>
  `${errors.length} error${errors.length === 1 ? '' : 's'}`

/** A refusal as the hook prints it: validate's lines, then what was refused. */
export function formatRefusal(r: PushRefusal): string {
  return [
    ...r.errors.map(formatDefinitionError),
    `refused: ${r.ref} at ${r.commit.slice(0, 12)}: ${r.reason}`,
  ].join('\n')
}
