import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setField } from '../../../engine/control-center/content/set-field'
import { loadConfig } from '../../config'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from '../../content/content-services'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { runGit } from '../../content/git/git-process'
import { createStaffUser, nextAuditId, type StaffUser } from '../../store/auth-store'
import { DB_KINDS, openTestStore, type TestStore } from '../../store/test-databases'
import { HELD_FLEET } from '../api/cc-test-harness'
import { PUBLISH_ABANDONED_ACTION, recordIntent } from './publication-intents'

const GROCERY = 'definitions/pages/grocery.json'

/**
 * Publish is one step (docs/decisions/0612): a publish a crash left between its intent and its rows
 * is settled from where live is — on the shared remote when there is one — by the reconcile.
 */
describe.each(DB_KINDS)('interrupted publishes on %s, with a CONTENT_REMOTE', { timeout: 60_000 }, (kind) => {
  let dir: string
  let store: TestStore
  let cc: ContentServices
  let publisher: StaffUser

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-intents-'))
    const remote = join(dir, 'remote.git')
    await runGit(remote, ['init', '--bare', '-q', remote])
    store = await openTestStore(kind, 'fw_intents')
    const config = {
      ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' }),
      databaseUrl: store.databaseUrl,
      contentGitDir: join(dir, 'content.git'),
      contentSource: 'git' as const,
      contentRemote: remote,
    }
    const opened = (await openContent(config)) as OpenedContent
    cc = startContentServices(opened, store, config, HELD_FLEET)
    publisher = await createStaffUser(store.db, {
      email: `pub-${randomUUID()}@x.test`,
      name: 'Pub',
      password: 'pw',
      role: 'publisher',
    })
  }, 120_000)
  afterAll(async () => {
    await cc?.close()
    await store?.close()
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  const repo = () => cc.repository.repo
  /** A new branch with one headline changed; returns live and the branch head. */
  async function branch(name: string): Promise<{ live: string; head: string }> {
    await cc.repository.sync()
    const live = (await repo().resolve(PUBLISHED_REF))!
    const text = (await repo().readText(`${live}:${GROCERY}`))!
    await cc.branches.createBranch(publisher, { name, title: name })
    await cc.branches.saveDraft(publisher, name, GROCERY, setField(text, '/headline', `Headline ${name}`))
    const { commit } = await cc.branches.commit(publisher, name, { message: name, expectedHead: live })
    return { live, head: commit }
  }
  /** The intent a publish commits before live moves, as publisher.ts writes it. */
  async function intend(name: string, live: string, head: string) {
    const auditId = await nextAuditId(store.db)
    const id = await recordIntent(store.db, {
      oldCommit: live,
      newCommit: head,
      branch: name,
      kind: 'publish',
      actor: publisher.id,
      snapshotId: 'snapshot-of-the-head',
      gateReport: { validation: 'passed', gates: 'passed' },
      auditId,
      action: 'publish',
      details: { from: live, to: head, fastForward: true },
    })
    return { id, auditId }
  }
  const intentRow = async (id: string) =>
    (
      await store.db.query<{ state: string; publication: string | null; audit_id: string }>(
        'SELECT state, publication::text AS publication, audit_id::text AS audit_id FROM content_publication_intents WHERE id = $1',
        [id],
      )
    ).rows[0]
  const auditRow = async (id: string) =>
    (
      await store.db.query<{ action: string; target: string; details: Record<string, unknown> }>(
        'SELECT action, target, details FROM audit_log WHERE id = $1',
        [id],
      )
    ).rows[0]
  const publicationsOf = async (commit: string) =>
    (
      await store.db.query<{ id: string; old_commit: string; branch: string }>(
        'SELECT id::text AS id, old_commit, branch FROM content_publications WHERE new_commit = $1',
        [commit],
      )
    ).rows
  const remoteLive = async () =>
    (await runGit(cc.repository.remote!, ['rev-parse', PUBLISHED_REF])).stdout.toString().trim()

  it('a publish marks its intent done, linked to its publication row and its audit row', async () => {
    const { head } = await branch('whole')
    const p = await cc.publisher.publish(publisher, 'whole', { expectedHead: head })
    const r = await store.db.query<{ id: string }>(
      'SELECT id::text AS id FROM content_publication_intents WHERE new_commit = $1',
      [head],
    )
    const intent = await intentRow(r.rows[0].id)
    expect(intent).toMatchObject({ state: 'done', publication: p.id })
    expect(await auditRow(intent.audit_id)).toMatchObject({
      action: 'publish',
      target: 'whole',
      details: { to: head, publication: p.id },
    })
  })

  it('live never moved: the reconcile abandons the intent, audits that, and writes no publication', async () => {
    const { live, head } = await branch('never-moved')
    const { id, auditId } = await intend('never-moved', live, head)
    expect(await cc.fleet.reconcile()).toBe(false)
    expect(await intentRow(id)).toMatchObject({ state: 'abandoned', publication: null })
    expect(await auditRow(auditId)).toMatchObject({
      action: PUBLISH_ABANDONED_ACTION,
      target: 'never-moved',
      details: { from: live, to: head, intended: 'publish', intent: id },
    })
    expect(await publicationsOf(head)).toEqual([])
    expect(cc.live.commit).toBe(live)
    // Settled once: another reconcile changes nothing.
    await cc.fleet.reconcile()
    expect((await store.db.query('SELECT 1 FROM audit_log WHERE id = $1', [auditId])).rows).toHaveLength(1)
  })

  it('live moved: the reconcile completes the rows, marks the branch published and serves it', async () => {
    const { live, head } = await branch('moved')
    const { id, auditId } = await intend('moved', live, head)
    await cc.repository.moveRef(PUBLISHED_REF, head, live)
    expect(await cc.fleet.reconcile()).toBe(true)
    const [publication] = await publicationsOf(head)
    expect(publication).toEqual({ id: expect.any(String), old_commit: live, branch: 'moved' })
    expect(await intentRow(id)).toMatchObject({ state: 'done', publication: publication.id })
    expect(await auditRow(auditId)).toMatchObject({
      action: 'publish',
      details: { from: live, to: head, publication: publication.id },
    })
    expect(
      (await store.db.query<{ status: string }>("SELECT status FROM cc_branches WHERE name = 'moved'"))
        .rows[0].status,
    ).toBe('published')
    expect(cc.live.commit).toBe(head)
  })

  it('moved here but never pushed: the remote is the truth, so the intent is abandoned', async () => {
    const { live, head } = await branch('local-only')
    const { id } = await intend('local-only', live, head)
    await repo().updateRef(PUBLISHED_REF, head, live)
    await cc.publisher.settleInterrupted()
    expect(await intentRow(id)).toMatchObject({ state: 'abandoned' })
    expect(await repo().resolve(PUBLISHED_REF)).toBe(live)
    expect(await publicationsOf(head)).toEqual([])
  })

  it('pushed although this instance put its ref back: the intent is completed', async () => {
    const { live, head } = await branch('pushed')
    const { id } = await intend('pushed', live, head)
    await repo().push(cc.repository.remote!, PUBLISHED_REF, head, live)
    expect(await cc.fleet.reconcile()).toBe(true)
    expect(await intentRow(id)).toMatchObject({ state: 'done' })
    expect(await remoteLive()).toBe(head)
    expect(await publicationsOf(head)).toHaveLength(1)
    expect(cc.live.commit).toBe(head)
  })

  it('a later publish settles the interrupted one first, so the audit log stays in order', async () => {
    const { live, head } = await branch('first')
    const { id } = await intend('first', live, head)
    const second = await branch('second')
    await cc.publisher.publish(publisher, 'second', { expectedHead: second.head })
    expect(await intentRow(id)).toMatchObject({ state: 'abandoned' })
    expect(cc.live.commit).not.toBe(head)
  })
})
