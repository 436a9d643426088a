import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * PGlite's data folder belongs to one process. The server writes `server.json` into it (pid, port and
 * where its operator socket is) so that a second server refuses to start on the same folder, and so
 * that the CLIs can ask the running server instead of opening the folder. It holds no secret: the
 * operator channel is a Unix socket only the server's user may open (docs/decisions/0722).
 */
export interface DataDirOwner {
  pid: number
  port: number
  /** The operator channel's Unix socket, or null before the server listens (docs/decisions/0722). */
  socket?: string | null
  /**
   * Which folder this claim is about (its device and inode). A copy of the folder — a restore, a
   * `cp -a` — carries the file along but is another folder: the claim is not its (0723).
   */
  folder?: string
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
    if (owner.folder !== undefined && owner.folder !== folderIdentity(dataDir)) return null
    return isRunning(owner.pid, owner.startedAt) ? owner : null
  } catch {
    return null
  }
}

export class DataDirInUseError extends Error {}

/** Claims the folder; throws DataDirInUseError when a live process holds it. */
export function claimDataDir(dataDir: string): {
  /** Says where the server listens: its site port and its operator socket. */
  setListening(port: number, socket: string | null): void
  release(): void
} {
  const owner = readDataDirOwner(dataDir)
  if (owner && owner.pid !== process.pid)
    throw new DataDirInUseError(
      `DATA_DIR: ${dataDir} is in use by another server (pid ${owner.pid}); stop it or choose another DATA_DIR`,
    )
  mkdirSync(dataDir, { recursive: true })
  const write = (port: number, socket: string | null) =>
    writeFileSync(
      join(dataDir, FILE),
      JSON.stringify({
        pid: process.pid,
        port,
        socket,
        folder: folderIdentity(dataDir),
        startedAt: processStartTime(process.pid),
      } satisfies DataDirOwner),
      { mode: 0o600 },
    )
  write(0, null)
  return {
    setListening: write,
    release: () => rmSync(join(dataDir, FILE), { force: true }),
  }
}

/** The folder itself, not its name: real path, device and inode (a copy at the same path differs too). */
function folderIdentity(dataDir: string): string {
  const st = statSync(dataDir)
  return `${realpathSync(dataDir)}@${st.dev}:${st.ino}`
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
