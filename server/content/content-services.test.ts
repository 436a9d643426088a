import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setField } from '../../engine/control-center/content/set-field'
import { loadConfig } from '../config'
import { HELD_FLEET } from '../control-center/api/cc-test-harness'
import { MergeConflictError, PublishRefusedError } from '../control-center/services/content-errors'
import { Publisher } from '../control-center/services/publisher'
import { createStaffUser, type StaffUser } from '../store/auth-store'
import { DB_KINDS, openTestStore, type TestStore } from '../store/test-databases'
import { ContentRepository } from './content-repository'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from './content-services'
import { PUBLISHED_REF } from './git/branch-name'
import { LiveContent } from './live-content'

const GROCERY = 'definitions/pages/grocery.json'
const OLD_HEADLINE = 'Help with groceries from your Medicare plan'

describe.each(DB_KINDS)(
  'content on git: branches, drafts, commits, publish on %s',
  { timeout: 30_000 },
  (kind) => {
    let dir: string
    let store: TestStore
    let cc: ContentServices
    let opened: OpenedContent
    const users: Record<string, StaffUser> = {}
    const base = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fw-cc-'))
      store = await openTestStore(kind)
      const config = {
        ...base,
        databaseUrl: store.databaseUrl,
        contentGitDir: join(dir, 'content.git'),
        contentSource: 'git' as const,
      }
      opened = (await openContent(config)) as OpenedContent
      cc = startContentServices(opened, store, config, HELD_FLEET)
      for (const role of ['viewer', 'editor', 'publisher', 'admin'])
        users[role] = await createStaffUser(store.db, {
          email: `${role}-${randomUUID()}@x.test`,
          name: `${role[0].toUpperCase()}${role.slice(1)} Person`,
          password: 'pw',
          role,
        })
    }, 120_000)
    afterAll(async () => {
      await cc?.close()
      await store?.close()
      rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    const liveHeadline = () => opened.snapshots.current.pages.get('grocery')?.headline
    const textAt = async (branch: string, path = GROCERY) =>
      (await cc.repository.repo.readText(`${await cc.branches.head(branch)}:${path}`))!
    /** Edits a field on a branch through a draft and commits it; returns the new head. */
    const edit = async (user: StaffUser, branch: string, pointer: string, value: unknown, path = GROCERY) => {
      const head = await cc.branches.head(branch)
      await cc.branches.saveDraft(user, branch, path, setField(await textAt(branch, path), pointer, value))
      return (await cc.branches.commit(user, branch, { message: `Edit ${pointer}`, expectedHead: head }))
        .commit
    }
    const auditActions = async (target: string) =>
      (
        await store.db.query<{ action: string }>(
          'SELECT action FROM audit_log WHERE target = $1 ORDER BY id',
          [target],
        )
      ).rows.map((r) => r.action)

    it('serves published, imported from the working tree; a fresh branch starts at live', async () => {
      expect(cc.live.commit).toBe(await cc.repository.repo.resolve(PUBLISHED_REF))
      expect(liveHeadline()).toBe(OLD_HEADLINE)
      const b = await cc.branches.createBranch(users.editor, { name: 'spring-promo', title: 'Spring promo' })
      expect(b.head).toBe(cc.live.commit)
      expect(await auditActions('spring-promo')).toEqual(['branch.create'])
    })

    it('refuses a viewer, a bad or taken name, an unknown base', async () => {
      await expect(cc.branches.createBranch(users.viewer, { name: 'v', title: 'V' })).rejects.toMatchObject({
        status: 403,
      })
      await expect(
        cc.branches.createBranch(users.editor, { name: 'Bad Name', title: 'x' }),
      ).rejects.toMatchObject({
        status: 400,
        message: expect.stringMatching(/"Bad Name" must be/),
      })
      await expect(
        cc.branches.createBranch(users.editor, { name: 'spring-promo', title: 'x' }),
      ).rejects.toMatchObject({
        status: 409,
        message: 'branch "spring-promo" already exists',
      })
      await expect(
        cc.branches.createBranch(users.editor, { name: 'x1', title: 'x', base: 'nope' }),
      ).rejects.toMatchObject({
        status: 404,
      })
    })

    it('drafts show in the user’s branch snapshot only; protected paths and live are refused', async () => {
      const text = setField(await textAt('spring-promo'), '/headline', 'Draft headline')
      const { draftsHash } = await cc.branches.saveDraft(users.editor, 'spring-promo', GROCERY, text)
      expect(draftsHash).not.toBe('')
      const mine = await cc.branches.snapshot('spring-promo', users.editor.id)
      expect(mine.result.ok && mine.result.snapshot.pages.get('grocery')?.headline).toBe('Draft headline')
      const theirs = await cc.branches.snapshot('spring-promo', users.publisher.id)
      expect(theirs.result.ok && theirs.result.snapshot.pages.get('grocery')?.headline).toBe(OLD_HEADLINE)
      expect(cc.branchSnapshots.has(mine.commit, mine.draftsHash)).toBe(true)
      expect(liveHeadline()).toBe(OLD_HEADLINE)
      await expect(
        cc.branches.saveDraft(users.editor, 'spring-promo', 'definitions/site.json', '{}'),
      ).rejects.toMatchObject({
        status: 403,
      })
      await expect(cc.branches.saveDraft(users.editor, 'live', GROCERY, text)).rejects.toMatchObject({
        status: 400,
        message: 'live is read-only: create a branch to save',
      })
      await expect(
        cc.branches.saveDraft(users.editor, 'spring-promo', 'server/app.ts', 'x'),
      ).rejects.toMatchObject({ status: 400 })
      await expect(cc.branches.saveDraft(users.viewer, 'spring-promo', GROCERY, text)).rejects.toMatchObject({
        status: 403,
      })
    })

    it('commits drafts as one commit: a one-line diff, the staff author, Staff-Id and Audit-Id trailers', async () => {
      const head = await cc.branches.head('spring-promo')
      const before = await textAt('spring-promo')
      const r = await cc.branches.commit(users.editor, 'spring-promo', {
        message: 'New headline',
        expectedHead: head,
      })
      expect(r.parent).toBe(head)
      const after = await textAt('spring-promo')
      const changed = after.split('\n').filter((l, i) => l !== before.split('\n')[i])
      expect(changed).toEqual(['  "headline": "Draft headline",'])
      const [log] = await cc.repository.repo.log('refs/heads/cc/spring-promo', 1)
      expect(log).toMatchObject({
        author: 'Editor Person',
        email: users.editor.email,
        subject: 'New headline',
      })
      const auditId = /Audit-Id: (\d+)/.exec(log.body)?.[1]
      expect(log.body).toContain(`Staff-Id: ${users.editor.id}`)
      const row = await store.db.query<{ action: string; actor: string; details: { to: string } }>(
        'SELECT action, actor, details FROM audit_log WHERE id = $1',
        [auditId],
      )
      expect(row.rows[0]).toMatchObject({
        action: 'commit',
        actor: users.editor.id,
        details: { to: r.commit },
      })
      expect(await cc.branches.drafts(users.editor.id, 'spring-promo')).toEqual([])
      await expect(
        cc.branches.commit(users.editor, 'spring-promo', { message: 'x', expectedHead: r.commit }),
      ).rejects.toMatchObject({
        status: 400,
        message: 'nothing to commit: no drafts on branch "spring-promo"',
      })
    })

    it('a moved head: untouched files commit on top, other fields merge, the same field conflicts', async () => {
      await cc.branches.createBranch(users.editor, { name: 'team', title: 'Team' })
      const start = await cc.branches.head('team')
      const grocery = await textAt('team')
      // Ed drafts on `start`; meanwhile the admin commits the subheadline.
      await cc.branches.saveDraft(
        users.editor,
        'team',
        GROCERY,
        setField(grocery, '/headline', 'Ed headline'),
      )
      await cc.branches.saveDraft(
        users.editor,
        'team',
        'definitions/pages/ads.json',
        await textAt('team', 'definitions/pages/ads.json'),
      )
      const adminHead = await edit(users.admin, 'team', '/subheadline', 'Admin sub')
      const merged = await cc.branches.commit(users.editor, 'team', { message: 'Ed', expectedHead: start })
      expect(merged.parent).toBe(adminHead)
      expect(merged.merged).toEqual([GROCERY])
      const data = JSON.parse(await textAt('team'))
      expect([data.headline, data.subheadline]).toEqual(['Ed headline', 'Admin sub'])
      // Same field on both sides: a conflict with base, theirs and mine; the draft is kept.
      const stale = await cc.branches.head('team')
      await cc.branches.saveDraft(
        users.editor,
        'team',
        GROCERY,
        setField(await textAt('team'), '/headline', 'Mine'),
      )
      await edit(users.admin, 'team', '/headline', 'Theirs')
      const err = await cc.branches
        .commit(users.editor, 'team', { message: 'x', expectedHead: stale })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(MergeConflictError)
      expect((err as MergeConflictError).status).toBe(409)
      expect((err as MergeConflictError).files).toEqual([
        {
          path: GROCERY,
          conflicts: [{ pointer: '/headline', base: 'Ed headline', theirs: 'Theirs', mine: 'Mine' }],
          texts: { base: expect.any(String), theirs: expect.any(String), mine: expect.any(String) },
        },
      ])
      expect((err as MergeConflictError).head).toBe(await cc.branches.head('team'))
      expect(await cc.branches.drafts(users.editor.id, 'team')).toHaveLength(1)
      await cc.branches.discardDraft(users.editor, 'team', GROCERY)
    })

    it('publish: editors get 403, a stale head 409; a publisher fast-forwards, swaps live, records and audits', async () => {
      const head = await cc.branches.head('spring-promo')
      await expect(
        cc.publisher.publish(users.editor, 'spring-promo', { expectedHead: head }),
      ).rejects.toMatchObject({ status: 403 })
      await expect(
        cc.publisher.publish(users.publisher, 'spring-promo', { expectedHead: cc.live.commit! }),
      ).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/changed since you reviewed it/),
      })
      const old = cc.live.commit
      const p = await cc.publisher.publish(users.publisher, 'spring-promo', { expectedHead: head })
      expect(p).toMatchObject({ oldCommit: old, newCommit: head, fastForward: true, kind: 'publish' })
      expect(cc.live.commit).toBe(head)
      expect(await cc.repository.repo.resolve(PUBLISHED_REF)).toBe(head)
      expect(liveHeadline()).toBe('Draft headline')
      const row = await store.db.query(
        'SELECT old_commit, new_commit, branch, kind, actor, snapshot_id FROM content_publications WHERE id = $1',
        [p.id],
      )
      expect(row.rows[0]).toEqual({
        old_commit: old,
        new_commit: head,
        branch: 'spring-promo',
        kind: 'publish',
        actor: users.publisher.id,
        snapshot_id: opened.snapshots.current.id,
      })
      expect(await auditActions('spring-promo')).toEqual(['branch.create', 'commit', 'publish'])
      await expect(
        cc.publisher.publish(users.publisher, 'spring-promo', { expectedHead: head }),
      ).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/nothing that is not live/),
      })
    })

    it('two branches, different fields of one page: both publish and live shows both', async () => {
      await cc.branches.createBranch(users.editor, { name: 'a-sub', title: 'A' })
      await cc.branches.createBranch(users.editor, { name: 'b-cta', title: 'B' })
      const a = await edit(users.editor, 'a-sub', '/subheadline', 'Subheadline from A')
      const b = await edit(users.editor, 'b-cta', '/cta/label', 'Label from B')
      await cc.publisher.publish(users.publisher, 'a-sub', { expectedHead: a })
      const pb = await cc.publisher.publish(users.publisher, 'b-cta', { expectedHead: b })
      expect(pb.fastForward).toBe(false)
      const page = opened.snapshots.current.pages.get('grocery')!
      expect([page.subheadline, page.cta?.label]).toEqual(['Subheadline from A', 'Label from B'])
      const [merge] = await cc.repository.repo.log(PUBLISHED_REF, 1)
      expect(merge.subject).toBe('Publish b-cta')
    })

    it('two branches, the same field: the second publish is a 409 naming the file and /headline', async () => {
      await cc.branches.createBranch(users.editor, { name: 'h1', title: 'H1' })
      await cc.branches.createBranch(users.editor, { name: 'h2', title: 'H2' })
      const h1 = await edit(users.editor, 'h1', '/headline', 'Headline one')
      const h2 = await edit(users.editor, 'h2', '/headline', 'Headline two')
      await cc.publisher.publish(users.publisher, 'h1', { expectedHead: h1 })
      const err = await cc.publisher
        .publish(users.publisher, 'h2', { expectedHead: h2 })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(MergeConflictError)
      expect((err as Error).message).toMatch(`${GROCERY} /headline`)
      expect(liveHeadline()).toBe('Headline one')
    })

    it('invalid content: commit works, publish is refused with every file:line pointer message, live unchanged', async () => {
      await cc.branches.createBranch(users.editor, { name: 'broken', title: 'Broken' })
      const quiz = 'definitions/pages/ac-v1.json'
      const head = await edit(users.editor, 'broken', '/destination', undefined, quiz)
      const snap = await cc.branches.snapshot('broken')
      expect(snap.result.ok).toBe(false)
      const live = cc.live.commit
      const err = await cc.publisher
        .publish(users.publisher, 'broken', { expectedHead: head })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(PublishRefusedError)
      expect((err as PublishRefusedError).status).toBe(422)
      expect((err as Error).message).toMatch(new RegExp(`${quiz}:\\d+:\\d+  \\S+  .*destination`))
      expect(cc.live.commit).toBe(live)
      const refused = await store.db.query("SELECT details FROM audit_log WHERE action = 'publish.refused'")
      expect(refused.rows).toHaveLength(1)
    })

    it('rollback: a new forward commit with the tree from before a publication, validated', async () => {
      const pubs = await store.db.query<{ id: string; old_commit: string }>(
        "SELECT id::text AS id, old_commit FROM content_publications WHERE branch = 'h1'",
      )
      const live = cc.live.commit!
      await expect(
        cc.publisher.rollback(users.editor, { publication: pubs.rows[0].id }),
      ).rejects.toMatchObject({ status: 403 })
      const r = await cc.publisher.rollback(users.publisher, {
        publication: pubs.rows[0].id,
        expectedLive: live,
      })
      expect(r.kind).toBe('rollback')
      expect(await cc.repository.repo.isAncestor(live, r.newCommit)).toBe(true)
      expect(await cc.repository.repo.treeOf(r.newCommit)).toBe(
        await cc.repository.repo.treeOf(pubs.rows[0].old_commit),
      )
      expect(liveHeadline()).toBe('Draft headline')
      expect(
        (await store.db.query("SELECT count(*)::int AS n FROM audit_log WHERE action = 'rollback'")).rows[0],
      ).toEqual({ n: 1 })
      await expect(cc.publisher.rollback(users.publisher, { publication: 999999 })).rejects.toMatchObject({
        status: 404,
      })
    })

    it('a scheduled publish fires exactly once, even with two instances polling together', async () => {
      await cc.branches.createBranch(users.editor, { name: 'later', title: 'Later' })
      const head = await edit(users.editor, 'later', '/headline', 'Scheduled headline')
      await cc.publisher.schedule(users.publisher, 'later', {
        expectedHead: head,
        at: new Date(Date.now() - 1000),
      })
      // A second instance: its own repository handle and publisher over the same database and repository.
      const other = await ContentRepository.open(join(dir, 'content.git'), null)
      const otherPublisher = new Publisher(other, store.db, new LiveContent(other, cc.source))
      try {
        const fired = (
          await Promise.all([cc.publisher.runDueSchedules(), otherPublisher.runDueSchedules()])
        ).flat()
        expect(fired).toHaveLength(1)
        expect(fired[0]).toMatchObject({ kind: 'scheduled', branch: 'later' })
        expect(await cc.publisher.runDueSchedules()).toEqual([])
      } finally {
        other.close()
      }
      expect(await auditActions('later')).toEqual([
        'branch.create',
        'commit',
        'publish.schedule',
        'publish.scheduled-fired',
      ])
      // A branch that moved after scheduling is not published: cancelled, with the reason audited.
      const moved = await edit(users.editor, 'later', '/headline', 'Even later')
      await cc.publisher.schedule(users.publisher, 'later', {
        expectedHead: moved,
        at: new Date(Date.now() - 1000),
      })
      await edit(users.editor, 'later', '/subheadline', 'after scheduling')
      expect(await cc.publisher.runDueSchedules()).toEqual([])
      expect((await auditActions('later')).at(-1)).toBe('publish.schedule-cancelled')
    })
  },
)
