import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { claimDataDir, DataDirInUseError, processStartTime, readDataDirOwner } from './data-dir-lock'

const dirs: string[] = []
const folder = () => {
  const d = mkdtempSync(join(tmpdir(), 'fw-lock-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('the data-folder lock', () => {
  it('a stale lock whose PID now belongs to another process does not refuse a restart', () => {
    const dir = folder()
    // As after SIGKILL: server.json names a PID that is alive again — but as another process.
    const reused = { pid: process.ppid, port: 3000, token: 't', startedAt: 'not-its-start-time' }
    writeFileSync(join(dir, 'server.json'), JSON.stringify(reused))
    const lock = claimDataDir(dir)
    lock.release()
  })

  it('a live owner (same PID, same start time) still refuses', async () => {
    const dir = folder()
    const other = spawn('sleep', ['30'], { stdio: 'ignore' })
    await new Promise((r) => other.once('spawn', r))
    try {
      const owner = { pid: other.pid, port: 3000, token: 't', startedAt: processStartTime(other.pid!) }
      expect(owner.startedAt).toMatch(/^\d+$/)
      writeFileSync(join(dir, 'server.json'), JSON.stringify(owner))
      expect(() => claimDataDir(dir)).toThrow(DataDirInUseError)
    } finally {
      other.kill()
    }
  })

  it('a copy of a held folder (a restore, cp -a) is another folder: it starts beside the original (0723)', async () => {
    const dir = folder()
    const other = spawn('sleep', ['30'], { stdio: 'ignore' })
    await new Promise((r) => other.once('spawn', r))
    try {
      const lock = claimDataDir(dir)
      // The claim as the running server wrote it, but naming another live process as owner.
      const claim = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'))
      lock.release()
      writeFileSync(
        join(dir, 'server.json'),
        JSON.stringify({ ...claim, pid: other.pid, startedAt: processStartTime(other.pid!) }),
      )
      expect(readDataDirOwner(dir)?.pid).toBe(other.pid)
      expect(() => claimDataDir(dir)).toThrow(DataDirInUseError)
      const copy = `${folder()}/restored`
      cpSync(dir, copy, { recursive: true })
      expect(readDataDirOwner(copy)).toBeNull()
      claimDataDir(copy).release()
    } finally {
      other.kill()
    }
  })

  it('server.json holds no secret: pid, port, socket, folder and start time only', () => {
    const dir = folder()
    const lock = claimDataDir(dir)
    lock.setListening(3000, join(dir, 'ops.sock'))
    const claim = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'))
    expect(Object.keys(claim).sort()).toEqual(['folder', 'pid', 'port', 'socket', 'startedAt'])
    lock.release()
  })
})
