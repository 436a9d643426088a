import { mergeJsonText } from '../../../engine/control-center/content/merge-json-text'
import { assertCan } from '../../../engine/control-center/content/permissions'
import { GATE_TIME_BUDGET_MS } from '../../../engine/control-center/gates/gate-constants'
import { isGateBudgetFailure } from '../../../engine/control-center/gates/gate-errors'
import {
  blockingGates,
  type GateImpact,
  gateImpact,
} from '../../../engine/control-center/gates/publish-gates'
import { LocatedJson } from '../../../engine/definitions/locate'
import { phoneCoverageWarnings } from '../../../engine/phone/phone-rule-coverage'
import type { DefinitionError, Snapshot, SnapshotResult } from '../../../engine/snapshot/types'
import type { Publication as GeneratedPublication } from '../../../schemas/generated/cc-answers/common'
import type { ContentRepository } from '../../content/content-repository'
import { LIVE_BRANCH, PUBLISHED_REF } from '../../content/git/branch-name'
import type { LiveContent } from '../../content/live-content'
import { liveMove } from '../../content/live-moves'
import { FAILPOINTS, failpoint } from '../../failpoints'
import { log } from '../../log'
import { audit, nextAuditId, type StaffUser } from '../../store/auth-store'
import type { Db, Queryable } from '../../store/db'
import { authorOf, commitMessage } from './branch-service'
import { ContentError, type FileConflict, MergeConflictError, PublishRefusedError } from './content-errors'
import {
  CONTENT_CHANNEL,
  completeIntent,
  hasPendingIntents,
  type IntentOutcome,
  recordIntent,
  settleIntents,
} from './publication-intents'
import { uploadErrors } from './uploaded-image-check'

/** Advisory-lock key of the one publish lock across instances. */
const PUBLISH_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext('fw_publish'))"

/** `push` and `outside`: moves of live no publication made, recorded when noticed (docs/decisions/0620). */
export type PublicationKind =
  | 'publish'
  | 'rollback'
  | 'scheduled'
  | 'import'
  | 'emergency'
  | 'push'
  | 'outside'

/** The audit actions of moves of live made outside the control center's publish (docs/decisions/0620). */
export const LIVE_MOVE_ACTIONS = { push: 'live.pushed', outside: 'live.moved-outside' } as const

/** A move of live, as the API answers it (schemas/cc-answers/common.schema.json). */
export type Publication = GeneratedPublication

/** The system actor of scheduled publishes, when the scheduler has no staff user to name. */
const SYSTEM: StaffUser = {
  id: 'system',
  email: 'control-center@funnelworks.invalid',
  name: 'Scheduler',
  role: 'admin',
}

/**
 * Publish, roll back and scheduled publish (CONTROL-CENTER §2.6): one lock, the expectedHead
 * check, a fast-forward or a structured merge, full validation of the exact tree that goes live,
 * then live moves as one step (0612): the intent, the ref move, then the content_publications row,
 * audit row and NOTIFY in one transaction, and the local swap.
 */
export class Publisher {
  constructor(
    readonly content: ContentRepository,
    readonly db: Db,
    readonly live: LiveContent,
    /** Each blocking gate's time budget per funnel (CC_GATE_BUDGET_MS). */
    readonly gateBudgetMs: number = GATE_TIME_BUDGET_MS,
    /** Told of every publication this instance makes (the metrics count them). */
    readonly onPublished?: (kind: PublicationKind) => void,
  ) {}

  /** One publish at a time: this process's queue, and on PostgreSQL an advisory lock across instances. */
  #locked<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.content.exclusive(() =>
      this.db.kind === 'postgres'
        ? this.db.transaction(async (tx) => {
            await tx.query(PUBLISH_LOCK_SQL)
            return fn(tx)
          })
        : fn(this.db),
    )
  }

  /** Publishes a branch whose head the publisher reviewed (`expectedHead`). */
  async publish(
    user: StaffUser,
    branch: string,
    input: {
      expectedHead: string
      requireApproval?: boolean
      /** An admin publishes past gates that ran out of their time budget, for this audited reason. */
      overrideBudget?: { reason: string }
    },
    kind: PublicationKind = 'publish',
  ): Promise<Publication> {
    assertCan(user, 'publish')
    if (input.overrideBudget) assertCan(user, 'gates.override')
    if (input.requireApproval) {
      const r = await this.db.query<{ approved_commit: string | null }>(
        'SELECT approved_commit FROM cc_branches WHERE name = $1',
        [branch],
      )
      if (r.rows[0]?.approved_commit !== input.expectedHead)
        throw new ContentError(409, `branch "${branch}" needs an approval of its head before publishing`)
    }
    if (branch === LIVE_BRANCH) throw new ContentError(400, 'live is already published')
    return this.#locked(async (tx) => {
      await settleIntents(this.content, this.db)
      await this.content.sync()
      const repo = this.content.repo
      const head = await this.content.head(branch)
      if (!head) throw new ContentError(404, `unknown branch "${branch}"`)
      if (head !== input.expectedHead)
        throw new ContentError(
          409,
          `branch "${branch}" changed since you reviewed it: head is ${head.slice(0, 12)}, not ${input.expectedHead.slice(0, 12)}`,
        )
      const live = await this.content.live()
      if (!live) throw new ContentError(409, 'nothing is published yet')
      if (live === head || (await repo.isAncestor(head, live)))
        throw new ContentError(409, `branch "${branch}" has nothing that is not live already`)
      const fastForward = await repo.isAncestor(live, head)
      const auditId = await nextAuditId(tx)
      const target = fastForward ? head : await this.#mergeIntoLive(live, head, branch, user, auditId)
      const { snapshot, overridden } = await this.#validate(
        target,
        user,
        { branch, commit: target },
        live,
        input.overrideBudget,
      )
      return this.#goLive({
        overridden,
        live,
        target,
        snapshot,
        branch,
        kind,
        user,
        auditId,
        action: kind === 'scheduled' ? 'publish.scheduled-fired' : 'publish',
        fastForward,
        ...(overridden.length
          ? {
              details: {
                gatesOverridden: {
                  reason: input.overrideBudget?.reason,
                  gates: overridden.map((e) => `${e.file} ${e.message}`),
                },
              },
            }
          : {}),
      })
    })
  }

  /**
   * Rolls back to before publication `id`: a new forward commit on published whose tree is that
   * publication's old tree, validated like any publish. The ref never rewinds.
   */
  async rollback(
    user: StaffUser,
    input: { publication: string | number; expectedLive?: string },
  ): Promise<Publication> {
    assertCan(user, 'publish')
    return this.#locked(async (tx) => {
      await settleIntents(this.content, this.db)
      await this.content.sync()
      const repo = this.content.repo
      const live = await this.content.live()
      if (!live) throw new ContentError(409, 'nothing is published yet')
      if (input.expectedLive && input.expectedLive !== live)
        throw new ContentError(
          409,
          `live changed: it is at ${live.slice(0, 12)}, not ${input.expectedLive.slice(0, 12)}`,
        )
      const r = await tx.query<{ old_commit: string | null }>(
        'SELECT old_commit FROM content_publications WHERE id = $1',
        [String(input.publication)],
      )
      const row = r.rows[0]
      if (!row) throw new ContentError(404, `unknown publication ${input.publication}`)
      if (!row.old_commit)
        throw new ContentError(400, `publication ${input.publication} has nothing before it`)
      const auditId = await nextAuditId(tx)
      const tree = await repo.treeOf(row.old_commit)
      const target = await repo.commitTree(
        tree,
        [live],
        commitMessage(
          `Roll back to before publication #${input.publication}`,
          user,
          auditId,
          `Tree of ${row.old_commit}.`,
        ),
        authorOf(user),
      )
      const { snapshot } = await this.#validate(target, user, { rollback: String(input.publication) })
      return this.#goLive({
        live,
        target,
        snapshot,
        branch: null,
        kind: 'rollback',
        user,
        auditId,
        action: 'rollback',
        fastForward: true,
        details: { publication: String(input.publication) },
      })
    })
  }

  /** Schedules a publish of the branch's current head (which must be the one reviewed). */
  async schedule(user: StaffUser, branch: string, input: { expectedHead: string; at: Date }): Promise<void> {
    assertCan(user, 'publish')
    const head = await this.content.head(branch)
    if (!head) throw new ContentError(404, `unknown branch "${branch}"`)
    if (head !== input.expectedHead)
      throw new ContentError(
        409,
        `branch "${branch}" changed since you reviewed it: head is ${head.slice(0, 12)}`,
      )
    if (Number.isNaN(input.at.getTime())) throw new ContentError(400, 'at: not a valid time')
    await this.db.query(
      `INSERT INTO cc_branches (name, title, base_commit, created_by, scheduled_at, scheduled_commit, scheduled_by)
       VALUES ($1, $1, $2, $3, $4, $2, $3)
       ON CONFLICT (name) DO UPDATE SET scheduled_at = $4, scheduled_commit = $2, scheduled_by = $3`,
      [branch, head, user.id, input.at.toISOString()],
    )
    await audit(this.db, {
      actor: user.id,
      action: 'publish.schedule',
      target: branch,
      details: { at: input.at.toISOString(), commit: head },
    })
  }

  /**
   * Fires every schedule that is due. Each is claimed by one atomic UPDATE … FOR UPDATE SKIP LOCKED,
   * so with several instances it fires exactly once. A branch that moved since scheduling is not
   * published: the schedule is cancelled with the reason, audited.
   */
  async runDueSchedules(now = new Date()): Promise<Publication[]> {
    const fired: Publication[] = []
    for (;;) {
      const r = await this.db.query<{ name: string; scheduled_commit: string; scheduled_by: string | null }>(
        `UPDATE cc_branches b SET scheduled_at = NULL, scheduled_commit = NULL
         FROM (SELECT name, scheduled_commit AS commit, scheduled_by AS by FROM cc_branches
               WHERE scheduled_at <= $1 ORDER BY scheduled_at LIMIT 1 FOR UPDATE SKIP LOCKED) due
         WHERE b.name = due.name RETURNING b.name, due.commit AS scheduled_commit, due.by AS scheduled_by`,
        [now.toISOString()],
      )
      const due = r.rows[0]
      if (!due) return fired
      const user = (await this.#staff(due.scheduled_by)) ?? SYSTEM
      try {
        fired.push(await this.publish(user, due.name, { expectedHead: due.scheduled_commit }, 'scheduled'))
      } catch (e) {
        log('warn', 'scheduled publish cancelled', { branch: due.name, reason: (e as Error).message })
        await audit(this.db, {
          actor: user.id,
          action: 'publish.schedule-cancelled',
          target: due.name,
          details: { commit: due.scheduled_commit, reason: (e as Error).message },
        })
      }
    }
  }

  async #staff(id: string | null): Promise<StaffUser | null> {
    if (!id) return null
    const r = await this.db.query<StaffUser>(
      'SELECT id, email, name, role FROM staff_users WHERE id = $1 AND NOT disabled',
      [id],
    )
    return r.rows[0] ?? null
  }

  /**
   * The files a branch that is behind live changes in live: files changed on one side take that
   * side; files changed on both merge by pointer (MergeConflictError when the same field changed).
   */
  async #mergeChanges(
    live: string,
    head: string,
    branch: string,
  ): Promise<{ path: string; content: string | Buffer | null }[]> {
    const repo = this.content.repo
    const base = await repo.mergeBase(live, head)
    if (!base) throw new ContentError(409, `branch "${branch}" shares no history with live`)
    const ours = new Set(await repo.changedPaths(base, head))
    const theirs = new Set(await repo.changedPaths(base, live))
    const changes: { path: string; content: string | Buffer | null }[] = []
    const conflicts: FileConflict[] = []
    for (const path of ours) {
      const mine = await repo.read(`${head}:${path}`)
      if (!theirs.has(path)) {
        changes.push({ path, content: mine })
        continue
      }
      const [b, t] = [await repo.readText(`${base}:${path}`), await repo.readText(`${live}:${path}`)]
      const m = mine?.toString('utf8') ?? null
      const r = path.endsWith('.json')
        ? mergeJsonText(b, t, m)
        : t === m
          ? { ok: true as const, text: m as string }
          : { ok: false as const, conflicts: [{ pointer: '', base: b, theirs: t, mine: m }] }
      if (r.ok) changes.push({ path, content: r.text })
      else conflicts.push({ path, conflicts: r.conflicts })
    }
    if (conflicts.length)
      throw new MergeConflictError(
        conflicts,
        `branch "${branch}" and live changed the same fields; update the branch from live`,
      )
    return changes
  }

  /** The merge commit of a branch that is behind live. */
  async #mergeIntoLive(
    live: string,
    head: string,
    branch: string,
    user: StaffUser,
    auditId: string,
  ): Promise<string> {
    const changes = await this.#mergeChanges(live, head, branch)
    return this.content.repo.commitFiles(
      live,
      changes,
      commitMessage(`Publish ${branch}`, user, auditId, `Merge of ${head} into live.`),
      authorOf(user),
      [head],
    )
  }

  /**
   * What publishing the branch now would put live, checked without writing anything: every
   * validation error of that exact tree, or the conflicts that would stop it (the Checks tab).
   */
  async check(branch: string): Promise<{
    commit: string
    /** Validation errors, then the blocking gates' (consent gate, smoke run; CONTROL-CENTER §7). */
    errors: DefinitionError[]
    /** Advice that never blocks publishing (phone-rule coverage, CONTROL-CENTER §7). */
    warnings: DefinitionError[]
    conflicts: { path: string; pointers: string[] }[]
    /** What the publish changes: path diff and shared-step impact (null when it does not build). */
    impact: GateImpact | null
  }> {
    const repo = this.content.repo
    const head = await this.content.head(branch)
    if (!head) throw new ContentError(404, `unknown branch "${branch}"`)
    const live = await this.content.live()
    // Uploads the image pipeline did not write, as publishing would refuse them (docs/decisions/0921).
    const uploads = live
      ? await uploadErrors(await repo.changedPaths(live, head), (path) => repo.read(`${head}:${path}`))
      : []
    if (!live || live === head || (await repo.isAncestor(live, head))) {
      const r = await this.live.source.build(head)
      const checked = await this.#checked(r, live, (path) => repo.readText(`${head}:${path}`))
      return { commit: head, ...checked, errors: [...uploads, ...checked.errors], conflicts: [] }
    }
    try {
      const changes = await this.#mergeChanges(live, head, branch)
      const overlay = new Map(
        changes
          .filter((c) => c.path.endsWith('.json'))
          .map((c) => [c.path, c.content === null ? null : c.content.toString()] as const),
      )
      const r = await this.live.source.build(live, overlay)
      const read = async (path: string) =>
        overlay.has(path) ? (overlay.get(path) ?? null) : repo.readText(`${live}:${path}`)
      const checked = await this.#checked(r, live, read)
      return { commit: head, ...checked, errors: [...uploads, ...checked.errors], conflicts: [] }
    } catch (e) {
      if (!(e instanceof MergeConflictError)) throw e
      return {
        commit: head,
        errors: [],
        warnings: [],
        conflicts: e.files.map((f) => ({ path: f.path, pointers: f.conflicts.map((c) => c.pointer || '/') })),
        impact: null,
      }
    }
  }

  /** A build's errors, or the gates' errors, warnings and impact of the valid snapshot. */
  async #checked(
    r: SnapshotResult,
    live: string | null,
    read: (path: string) => Promise<string | null>,
  ): Promise<{ errors: DefinitionError[]; warnings: DefinitionError[]; impact: GateImpact | null }> {
    if (!r.ok) return { errors: r.errors, warnings: [], impact: null }
    const before = await this.#liveSnapshot(live)
    return {
      errors: await located(await blockingGates(before, r.snapshot, { budgetMs: this.gateBudgetMs }), read),
      warnings: phoneCoverageWarnings(r.snapshot),
      impact: gateImpact(before, r.snapshot),
    }
  }

  /** The published snapshot the gates compare with (null when nothing is published or it fails to build). */
  #liveBuilt: { commit: string; snapshot: Promise<Snapshot | null> } | null = null
  #liveSnapshot(commit: string | null): Promise<Snapshot | null> {
    if (!commit) return Promise.resolve(null)
    if (this.#liveBuilt?.commit !== commit)
      this.#liveBuilt = {
        commit,
        snapshot: this.live.source.build(commit).then(
          (r) => (r.ok ? r.snapshot : null),
          () => null,
        ),
      }
    return this.#liveBuilt.snapshot
  }

  /**
   * Validates the exact tree that goes live; a publish (not a rollback, which restores a tree that
   * was live before) also runs the blocking gates against what is live now.
   */
  async #validate(
    commit: string,
    user: StaffUser,
    details: object,
    live?: string,
    override?: { reason: string },
  ): Promise<{ snapshot: Snapshot; overridden: DefinitionError[] }> {
    const result = await this.live.source.build(commit)
    // Uploads the image pipeline did not write never go live (docs/decisions/0921).
    const uploads =
      live === undefined
        ? []
        : await uploadErrors(await this.content.repo.changedPaths(live, commit), (path) =>
            this.content.repo.read(`${commit}:${path}`),
          )
    const errors = [
      ...uploads,
      ...(result.ok
        ? live === undefined
          ? []
          : await located(
              await blockingGates(await this.#liveSnapshot(live), result.snapshot, {
                budgetMs: this.gateBudgetMs,
              }),
              (path) => this.content.repo.readText(`${commit}:${path}`),
            )
        : result.errors),
    ]
    if (result.ok && errors.length === 0) return { snapshot: result.snapshot, overridden: [] }
    // Gates that only ran out of time fail closed; an admin may go past them with a reason (audited
    // with the publish). A real finding is never overridden.
    if (result.ok && override && errors.every(isGateBudgetFailure))
      return { snapshot: result.snapshot, overridden: errors }
    // Outside the publish transaction, which rolls back: the refusal stays recorded.
    await audit(this.db, {
      actor: user.id,
      action: 'publish.refused',
      details: { ...details, errors: errors.length, ...(result.ok ? { gates: 'failed' } : {}) },
    })
    throw new PublishRefusedError(errors)
  }

  /**
   * Moves live as one step (docs/decisions/0612): the intent (every row the publish will write) is
   * committed first, then the ref moves (compare-and-swap, pushed with a lease), then one transaction
   * writes the publication and audit rows and marks the intent done. A crash between the steps leaves
   * a pending intent that settleIntents completes or abandons from where live is.
   */
  async #goLive(p: {
    live: string
    target: string
    snapshot: Snapshot
    branch: string | null
    kind: PublicationKind
    user: StaffUser
    auditId: string
    action: string
    fastForward: boolean
    details?: object
    /** Gates that ran out of time and an admin published past (the reason is in `details`). */
    overridden?: DefinitionError[]
  }): Promise<Publication> {
    const intent = await recordIntent(this.db, {
      oldCommit: p.live,
      newCommit: p.target,
      branch: p.branch,
      kind: p.kind,
      actor: p.user.id,
      snapshotId: p.snapshot.id,
      gateReport: {
        validation: 'passed',
        gates: p.kind === 'rollback' ? 'not run' : p.overridden?.length ? 'overridden' : 'passed',
        ...(p.overridden?.length ? { overridden: p.overridden.map((e) => `${e.file} ${e.message}`) } : {}),
      },
      auditId: p.auditId,
      action: p.action,
      details: {
        from: p.live,
        to: p.target,
        fastForward: p.fastForward,
        // What went live, for the Activity screen's sentence ("… (3 files)").
        paths: await this.content.repo.changedPaths(p.live, p.target),
        ...p.details,
      },
    })
    failpoint(FAILPOINTS.publishAfterIntent)
    let id: string | null
    try {
      // A refused commit on the ref (docs/decisions/0610) is replaced: `live` is the served commit.
      await this.content.moveRef(PUBLISHED_REF, p.target, this.live.refused?.commit ?? p.live)
    } catch (e) {
      // A push can fail after the remote took it: what happened is decided from where live is.
      const settled = await settleIntents(this.content, this.db).catch(() => [] as IntentOutcome[])
      const mine = settled.find((s) => s.intent === intent)
      if (mine?.outcome !== 'completed') throw e
      this.live.swap(p.target, p.snapshot)
      return this.#published(p, mine.publication)
    }
    failpoint(FAILPOINTS.publishAfterRef)
    try {
      id = await completeIntent(this.db, intent)
    } finally {
      // Live moved: serve it even when the rows failed (the reconcile completes them).
      this.live.swap(p.target, p.snapshot)
    }
    if (!id) throw new Error(`publication intent ${intent} was settled by someone else during its publish`)
    return this.#published(p, id)
  }

  #published(
    p: { live: string; target: string; branch: string | null; kind: PublicationKind; fastForward: boolean },
    id: string,
  ): Publication {
    log('info', 'published', { kind: p.kind, branch: p.branch, commit: p.target, publication: id })
    this.onPublished?.(p.kind)
    return {
      id,
      oldCommit: p.live,
      newCommit: p.target,
      branch: p.branch,
      kind: p.kind,
      fastForward: p.fastForward,
    }
  }

  /**
   * Puts a move of live no publication made on the record (docs/decisions/0620): a `git push` (the
   * pusher is the commit's Staff-Id, else its committer) or a ref moved by hand on the server
   * (`outside`, no one named). One publication row and one audit row, once across instances (under
   * the publish lock, skipped when the latest publication is at the commit), and a NOTIFY. A rewind
   * to a commit an earlier publication put live is a move like any other.
   */
  async recordMove(m: { from: string | null; to: string; snapshotId: string }): Promise<Publication | null> {
    return this.#locked(async (locked) => {
      const write = async (tx: Queryable) => {
        // On the record already: the latest publication put live here (under the lock, a publish of
        // another instance has written its row), or an interrupted publish's intent will settle it.
        const latest = await tx.query<{ new_commit: string }>(
          'SELECT new_commit FROM content_publications ORDER BY id DESC LIMIT 1',
        )
        if (latest.rows[0]?.new_commit === m.to) return null
        const pending = await tx.query(
          `SELECT 1 FROM content_publication_intents WHERE state = 'pending' AND new_commit = $1 LIMIT 1`,
          [m.to],
        )
        if (pending.rows.length) return null
        const move = await liveMove(this.content, m.from, m.to)
        const staff =
          (move.staffId ? await anyStaff(tx, 'id', move.staffId) : null) ??
          (move.kind === 'push' && move.committer.email
            ? await anyStaff(tx, 'email', move.committer.email)
            : null)
        const actor =
          move.kind === 'outside' ? null : (staff ?? `${move.committer.name} <${move.committer.email}>`)
        const r = await tx.query<{ id: string }>(
          `INSERT INTO content_publications (old_commit, new_commit, branch, kind, actor, snapshot_id, gate_report)
           VALUES ($1, $2, NULL, $3, $4, $5, $6::jsonb) RETURNING id::text AS id`,
          [
            m.from,
            m.to,
            move.kind,
            actor,
            m.snapshotId,
            JSON.stringify({ validation: 'passed', gates: 'passed', checkedBy: 'live content' }),
          ],
        )
        const id = r.rows[0].id
        await audit(tx, {
          actor,
          action: LIVE_MOVE_ACTIONS[move.kind],
          target: PUBLISHED_REF,
          details: {
            from: m.from,
            to: m.to,
            fastForward: move.fastForward,
            publication: id,
            committer: `${move.committer.name} <${move.committer.email}>`,
            ...(move.staffId ? { staffId: move.staffId } : {}),
            paths: m.from ? await this.content.repo.changedPaths(m.from, m.to) : [],
          },
        })
        await tx.query('SELECT pg_notify($1, $2)', [
          CONTENT_CHANNEL,
          JSON.stringify({ type: 'published', commit: m.to, id }),
        ])
        this.onPublished?.(move.kind)
        log(move.kind === 'push' ? 'info' : 'warn', LIVE_MOVE_ACTIONS[move.kind], {
          from: m.from,
          to: m.to,
          publication: id,
          actor,
        })
        return {
          id,
          oldCommit: m.from,
          newCommit: m.to,
          branch: null,
          kind: move.kind,
          fastForward: move.fastForward,
        }
      }
      return this.db.kind === 'postgres' ? write(locked) : this.db.transaction(write)
    })
  }

  /**
   * Completes or abandons any publish a crash left half done (at start and on every reconcile),
   * under the publish lock so no publish in progress is mistaken for one.
   */
  async settleInterrupted(): Promise<IntentOutcome[]> {
    // The lock only when there is something to settle: the reconcile asks every 30 s.
    if (!(await hasPendingIntents(this.db))) return []
    return this.#locked(() => settleIntents(this.content, this.db))
  }
}

/** A staff user (disabled ones too: the record names who it was) by id or e-mail. */
async function anyStaff(tx: Queryable, by: 'id' | 'email', value: string): Promise<string | null> {
  const r = await tx.query<{ id: string }>(
    `SELECT id FROM staff_users WHERE ${by === 'id' ? 'id' : 'lower(email)'} = $1`,
    [by === 'id' ? value : value.toLowerCase()],
  )
  return r.rows[0]?.id ?? null
}

/** Gate errors with the line and column of their pointer, read from the file as it would go live. */
async function located(
  errors: DefinitionError[],
  read: (path: string) => Promise<string | null>,
): Promise<DefinitionError[]> {
  const texts = new Map<string, LocatedJson | null>()
  for (const e of errors)
    if (!texts.has(e.file)) {
      const text = await read(e.file).catch(() => null)
      texts.set(e.file, text === null ? null : new LocatedJson(text))
    }
  return errors.map((e) => {
    const at = texts.get(e.file)?.positionOf(e.pointer)
    return at ? { ...e, line: at.line, column: at.column } : e
  })
}
