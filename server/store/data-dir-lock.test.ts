import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { claimDataDir, DataDirInUseError, processStartTime } from './data-dir-lock'

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
})
