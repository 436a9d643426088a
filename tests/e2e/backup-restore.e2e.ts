/**
 * Backups that restore (issue 30, acceptance 3; docs/decisions/0310): `npm run backup` taken through a
 * running `npm start` server on PGlite while events stream in, restored with `npm run restore` into an
 * empty DATA_DIR; the restored server serves the same live commit, staff sign in, and `npm run leads
 * -- show` tells the same story for a lead recorded before the backup. A truncated backup is refused
 * naming what is missing.
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readRefs } from '../../server/backup/git-snapshot'
import type { BackupManifest } from '../../server/backup/manifest'
import { opsFetch, opsPost, reachable } from '../../server/cli/ops-request'
import { RUN_DIR_ENV } from '../../server/runtime/running-servers'
import { readDataDirOwner } from '../../server/store/data-dir-lock'
import { sampleEvent } from '../../server/store/sample-event'
import { httpGet, sendJson } from './http'
import { newDataDir, PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

const PASSWORD = 'correct-horse-battery'
const LEAD = 'anon-backup-lead'

describe('backup and restore of a running server on PGlite', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'fw-backup-'))
  const runDir = join(scratch, 'run')
  const servers: ServerProcess[] = []
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    rmSync(scratch, { recursive: true, force: true })
  })

  /** An `npm run <script>` CLI as the README runs it: no DATA_DIR beside a running server. */
  const cli = (script: string, args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const env: NodeJS.ProcessEnv = { ...process.env, [RUN_DIR_ENV]: runDir, LOG_LEVEL: 'error', ...extra }
    if (!extra.DATA_DIR) delete env.DATA_DIR
    delete env.DATABASE_URL
    delete env.CONTENT_GIT_DIR
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', script), ...args],
      { cwd: PROJECT_ROOT, env },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    // Not spawnSync: the test's own event loop keeps posting events while a CLI runs.
    return new Promise<{ status: number | null; out: string; stdout: string }>((resolve) =>
      child.once('close', (status) => resolve({ status, out: `${stdout}${stderr}`, stdout })),
    )
  }

  const post = (port: number, body: unknown) =>
    fetch(`http://127.0.0.1:${port}/api/event/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('a backup taken during event ingest restores: same live commit, staff sign in, same lead story', async () => {
    const dataDir = newDataDir('fw-backup-data-')
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      CONTENT_SOURCE: 'git',
      [RUN_DIR_ENV]: runDir,
    })
    servers.push(server)
    const owner = readDataDirOwner(dataDir)
    if (!reachable(owner)) throw new Error('the server names no operator socket')
    await opsPost(owner, '/api/_ops/staff', {
      args: ['add', 'ann@example.com', 'Ann'],
      role: 'admin',
      password: PASSWORD,
    })
    // The lead, recorded before the backup.
    const lead = (i: number) => ({
      ...sampleEvent(undefined, { userId: `${LEAD}-user` }),
      anonymousId: LEAD,
      sessionId: `${LEAD}-session`,
      name: `step-${i}`,
    })
    expect((await post(server.port, [lead(1), lead(2), lead(3)])).status).toBe(200)
    const liveBefore = (await (await fetch(`http://127.0.0.1:${server.port}/healthz`)).json()).commit
    expect(liveBefore).toMatch(/^[0-9a-f]{40}$/)
    const storyBefore = await (await opsFetch(owner, `/api/_ops/leads?key=${LEAD}`)).json()

    // Events stream in while the backup is taken.
    const acked: string[] = []
    let running = true
    const ingest = Array.from({ length: 4 }, async () => {
      while (running) {
        const batch = [sampleEvent(), sampleEvent()]
        if ((await post(server.port, batch)).status === 200)
          acked.push(...batch.map((e) => e.properties.eventId))
      }
    })
    await expect.poll(() => acked.length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(50)
    const ackedBeforeBackup = [...acked]
    const backupDir = join(scratch, 'backup')
    // With the key: the restored server's preview links below must still verify (docs/decisions/0721).
    const backup = await cli('backup.ts', [backupDir, '--include-keys'])
    const ackedDuring = acked.length - ackedBeforeBackup.length
    running = false
    await Promise.all(ingest)
    expect(backup.status, backup.out).toBe(0)
    expect(ackedDuring, 'events were written while the backup ran').toBeGreaterThan(0)
    expect(backup.out).toContain(`backup written to ${backupDir}`)
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest
    expect(manifest.liveCommit).toBe(liveBefore)
    expect(manifest.files.map((f) => f.name).sort()).toEqual([
      'content.bundle',
      'preview.key',
      'store.tar.gz',
    ])
    expect(manifest.rowCounts.staff_users).toBe(1)
    expect(manifest.rowCounts.events).toBeGreaterThanOrEqual(ackedBeforeBackup.length + 3)

    // Restore into an empty DATA_DIR; it checks that every table holds what the manifest counted.
    const restoredDir = join(scratch, 'restored')
    const restore = await cli('restore.ts', [backupDir], { DATA_DIR: restoredDir })
    expect(restore.status, restore.out).toBe(0)
    expect(restore.out).toContain(`live ${liveBefore}`)
    expect(restore.out).toContain('as the manifest counts')
    // Every branch and archive came back (nothing was published or edited since the backup).
    expect(readRefs(join(restoredDir, 'content.git'))).toEqual(readRefs(join(dataDir, 'content.git')))
    expect(manifest.content?.refs).toEqual(readRefs(join(dataDir, 'content.git')))
    // A restored folder starts beside its running source: it is another folder (docs/decisions/0723).
    const restored = await startServerProcess({
      DATA_DIR: restoredDir,
      CONTENT_SOURCE: 'git',
      [RUN_DIR_ENV]: runDir,
    })
    servers.push(restored)
    expect(readDataDirOwner(dataDir)?.pid).toBe(server.child.pid)
    expect(readDataDirOwner(restoredDir)?.pid).toBe(restored.child.pid)
    expect((await (await fetch(`http://127.0.0.1:${restored.port}/healthz`)).json()).commit).toBe(liveBefore)
    const signIn = await sendJson(
      restored.port,
      `ccc.localhost:${restored.port}`,
      'POST',
      '/api/_auth/session',
      {
        email: 'ann@example.com',
        password: PASSWORD,
      },
    )
    expect(signIn.status, signIn.body).toBe(200)
    const leads = await cli('leads.ts', ['show', LEAD, '--json'], { DATA_DIR: restoredDir })
    expect(leads.status, leads.out).toBe(0)
    expect(JSON.parse(leads.stdout)).toEqual(storyBefore)

    // Nothing in the backup or in either data folder opens the operator endpoints on a site port
    // (docs/decisions/0722): every word of every small file, and every string of server.json.
    const candidates = new Set<string>()
    const words = (text: string) => {
      for (const w of text.match(/[A-Za-z0-9_+/=.-]{8,}/g) ?? []) candidates.add(w)
    }
    for (const dir of [backupDir, dataDir, restoredDir])
      for (const name of readdirSync(dir)) {
        const file = join(dir, name)
        if (statSync(file).isFile() && statSync(file).size < 64 * 1024) words(readFileSync(file, 'latin1'))
      }
    for (const dir of [dataDir, restoredDir])
      for (const v of Object.values(JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as object))
        candidates.add(String(v))
    expect(candidates.size).toBeGreaterThan(3)
    const attack = { args: ['add', 'mallory@example.com', 'M'], role: 'admin', password: PASSWORD }
    for (const port of [server.port, restored.port])
      for (const host of ['127.0.0.1', `m10.localhost:${port}`, `ccc.localhost:${port}`])
        for (const token of candidates) {
          const r = await httpGet(
            port,
            '/api/_ops/staff',
            host,
            { 'content-type': 'application/json', origin: `http://${host}`, 'x-ops-token': token },
            'POST',
            JSON.stringify(attack),
          )
          expect(r.status, `${token} on ${host}`).toBe(404)
        }
    // …while the CLIs still reach both servers over their sockets.
    const added = await cli('staff.ts', ['add', 'bea@example.com', 'Bea', '--role', 'viewer'], {
      DATA_DIR: dataDir,
      FW_STAFF_PASSWORD: PASSWORD,
    })
    expect(added.status, added.out).toBe(0)
    expect(added.out).toContain('created bea@example.com (viewer)')
    const malloryIn = await sendJson(
      restored.port,
      `ccc.localhost:${restored.port}`,
      'POST',
      '/api/_auth/session',
      { email: 'mallory@example.com', password: PASSWORD },
    )
    expect(malloryIn.status).toBe(401)
    await server.stop()
  }, 240_000)

  it('refuses a truncated backup, naming what is missing or damaged', async () => {
    const backupDir = join(scratch, 'backup')
    const cut = join(scratch, 'cut')
    cpSync(backupDir, cut, { recursive: true })
    const store = join(cut, 'store.tar.gz')
    truncateSync(store, 1000)
    rmSync(join(cut, 'content.bundle'))
    const r = await cli('restore.ts', [cut], { DATA_DIR: join(scratch, 'never') })
    expect(r.status).toBe(1)
    expect(r.out).toContain('is not a complete backup, refusing to restore')
    expect(r.out).toContain('content.bundle is missing')
    expect(r.out).toMatch(/store\.tar\.gz has 1000 bytes, the manifest says \d+/)
    rmSync(join(cut, 'manifest.json'))
    expect((await cli('restore.ts', [cut], { DATA_DIR: join(scratch, 'never') })).out).toContain(
      'manifest.json is missing',
    )
  })
})
