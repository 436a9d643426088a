import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * PGlite's data folder belongs to one process. The server writes `server.json` into it (pid, port and
 * a random token for the operator endpoints) so that a second server refuses to start on the same
 * folder, and so that `npm run events` can ask the running server instead of opening the folder.
 */
export interface DataDirOwner {
  pid: number
  port: number
  token: string
  /**
   * When the owner process started (Linux: /proc/<pid>/stat field 22). After a crash the PID may be
   * reused by another process; a different start time tells the lock is stale.
   */
  startedAt?: string | null
}

const FILE = 'server.json'

export function readDataDirOwner(dataDir: string): DataDirOwner | null {
  try {
    const owner = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as DataDirOwner
    return isRunning(owner.pid, owner.startedAt) ? owner : null
  } catch {
    return null
  }
}

export class DataDirInUseError extends Error {}

/** Claims the folder; throws DataDirInUseError when a live process holds it. */
export function claimDataDir(dataDir: string): {
  token: string
  setPort(port: number): void
  release(): void
} {
  const owner = readDataDirOwner(dataDir)
  if (owner && owner.pid !== process.pid)
    throw new DataDirInUseError(
      `DATA_DIR: ${dataDir} is in use by another server (pid ${owner.pid}); stop it or choose another DATA_DIR`,
    )
  const token = randomBytes(24).toString('base64url')
  const write = (port: number) =>
    writeFileSync(
      join(dataDir, FILE),
      JSON.stringify({
        pid: process.pid,
        port,
        token,
        startedAt: processStartTime(process.pid),
      } satisfies DataDirOwner),
      { mode: 0o600 },
    )
  mkdirSync(dataDir, { recursive: true })
  write(0)
  return {
    token,
    setPort: write,
    release: () => rmSync(join(dataDir, FILE), { force: true }),
  }
}

/** Whether the process `pid` runs and is the one that started at `startedAt` (not a reuse of its PID). */
export function isRunning(pid: number, startedAt: string | null | undefined): boolean {
  return isAlive(pid) && sameProcess({ pid, startedAt })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The start time of a process as the kernel tells it, or null where /proc is not available. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null
  } catch {
    return null
  }
}

/** Whether the live process with the owner's PID is the owner itself (not a reuse of its PID). */
function sameProcess(owner: Pick<DataDirOwner, 'pid' | 'startedAt'>): boolean {
  if (!owner.startedAt) return true
  const now = processStartTime(owner.pid)
  return now === null || now === owner.startedAt
}
