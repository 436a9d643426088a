/**
 * Publish is one step (issue 27, acceptance 7; docs/decisions/0612): a server killed at each point
 * between the steps of a publish — after the intent, after the ref move — comes back with live, the
 * publication rows and the audit log in agreement: the publish happened with all its rows, or not at all.
 * One data folder, one restart per failpoint: the restart after one kill is the server the next kills.
 */

import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { setField } from '../../engine/control-center/content/set-field'
import { branchRef, PUBLISHED_REF } from '../../server/content/git/branch-name'
import { ContentRepo } from '../../server/content/git/content-repo'
import { FAILPOINTS } from '../../server/failpoints'
import { openStore } from '../../server/store/open-store'
import { sendJson } from './http'
import { newDataDir, startServerProcess } from './server-process'
import { addStaff } from './staff-cli'

const PASSWORD = 'correct-horse-battery'
const PUBLISHER = 'pub@failpoint.test'
const GROCERY = 'definitions/pages/grocery.json'
const BRANCH = 'failpoint-promo'

/** A request to the control center's host, as its own pages send it. */
const cc = (port: number, method: string, path: string, body?: unknown, cookie = '') =>
  sendJson(port, `ccc.localhost:${port}`, method, path, body, cookie)

async function liveCommit(port: number): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/healthz`)
  return ((await r.json()) as { commit: string }).commit
}

/** What the data folder says about publications, once no server holds it. */
async function records(dataDir: string) {
  const store = await openStore({ databaseUrl: null, dataDir })
  try {
    const q = async <T>(sql: string) => (await store.db.query<T & Record<string, unknown>>(sql)).rows
    return {
      publications: await q<{ id: string; old_commit: string; new_commit: string; branch: string }>(
        'SELECT id::text AS id, old_commit, new_commit, branch FROM content_publications ORDER BY id',
      ),
      audit: await q<{ id: string; action: string; details: Record<string, unknown> }>(
        `SELECT id::text AS id, action, details FROM audit_log WHERE action LIKE 'publish%' ORDER BY id`,
      ),
      intents: await q<{ state: string; new_commit: string; audit_id: string }>(
        'SELECT state, new_commit, audit_id::text AS audit_id FROM content_publication_intents ORDER BY id',
      ),
    }
  } finally {
    await store.close()
  }
}

describe('a publish killed between its steps', () => {
  it('killed after its intent, then after its ref move: each restart agrees on live, publications and audit', {
    timeout: 180_000,
  }, async () => {
    const dataDir = newDataDir('fw-failpoint-')
    const env = { DATA_DIR: dataDir, CONTENT_SOURCE: 'git' }
    let head = ''
    /** Starts a server armed with `failpoint`, publishes the branch and sees it die there; returns live before. */
    const publishKilledAt = async (failpoint: string, setUp?: (live: string) => Promise<void>) => {
      const server = await startServerProcess({ ...env, NODE_ENV: 'test', FW_FAILPOINTS: failpoint })
      const live = await liveCommit(server.port)
      await setUp?.(live)
      const session = await cc(server.port, 'POST', '/api/_auth/session', {
        email: PUBLISHER,
        password: PASSWORD,
      })
      expect(session.status, session.body).toBe(200)
      const exited = new Promise<NodeJS.Signals | null>((r) => server.child.once('exit', (_, s) => r(s)))
      // The server dies inside the publish: the request gets no answer.
      await expect(
        cc(server.port, 'POST', `/api/cc/branches/${BRANCH}/publish`, { expectedHead: head }, session.cookie),
      ).rejects.toThrow()
      expect(await exited).toBe('SIGKILL')
      return live
    }
    try {
      addStaff({ DATA_DIR: dataDir }, PASSWORD, [[PUBLISHER, 'Pat Publisher', 'publisher']])
      // A branch with one change, written with git as any client could (the first start made the repository).
      const before = await publishKilledAt(FAILPOINTS.publishAfterIntent, async (live) => {
        const repo = await ContentRepo.open(join(dataDir, 'content.git'))
        try {
          const text = (await repo.readText(`${live}:${GROCERY}`))!
          head = await repo.commitFiles(
            live,
            [{ path: GROCERY, content: setField(text, '/headline', 'Killed mid-publish') }],
            'A headline',
          )
          await repo.updateRef(branchRef(BRANCH), head, null)
        } finally {
          repo.close()
        }
      })
      // Killed before live moved: the restart serves what was live; the same publish is tried again.
      expect(await publishKilledAt(FAILPOINTS.publishAfterRef)).toBe(before)
      // Killed after live moved: the restart serves the branch.
      const last = await startServerProcess(env)
      expect(await liveCommit(last.port)).toBe(head)
      expect(await last.stop()).toBe(0)

      const repo = await ContentRepo.open(join(dataDir, 'content.git'))
      expect(await repo.resolve(PUBLISHED_REF)).toBe(head)
      repo.close()
      const { publications, audit, intents } = await records(dataDir)
      expect(intents).toEqual([
        { state: 'abandoned', new_commit: head, audit_id: expect.any(String) },
        { state: 'done', new_commit: head, audit_id: expect.any(String) },
      ])
      // One publication, one audit row claiming it; the interrupted one is audited as not having happened.
      expect(publications).toEqual([
        { id: expect.any(String), old_commit: before, new_commit: head, branch: BRANCH },
      ])
      expect(audit).toEqual([
        {
          id: intents[0].audit_id,
          action: 'publish.abandoned',
          details: expect.objectContaining({ from: before, to: head, intended: 'publish' }),
        },
        {
          id: intents[1].audit_id,
          action: 'publish',
          details: expect.objectContaining({ from: before, to: head, publication: publications[0].id }),
        },
      ])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
