/**
 * Which servers run from this checkout, and where their data is (docs/decisions/0615). Each server
 * writes a run file `<pid>.json` into one well-known folder (FW_RUN_DIR, default
 * `<tmp>/funnelworks-<uid>`), naming its project root, DATA_DIR, content repository and port, and
 * removes it when it stops; the CLIs (`content -- import`, `staff`, `validate`) read it to find the
 * running server without being told its DATA_DIR. They then talk to it over the operator socket that
 * DATA_DIR/server.json names, which only the server's user may open (docs/decisions/0722).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isRunning, processStartTime } from '../store/data-dir-lock'

/** Overrides the run-file folder (tests give each run its own). */
export const RUN_DIR_ENV = 'FW_RUN_DIR'

export interface ServerRunInfo {
  pid: number
  startedAt: string | null
  port: number
  projectRoot: string
  dataDir: string
  /** The data store: PGlite in dataDir (operator endpoints on), or PostgreSQL (DATABASE_URL). */
  store: 'pglite' | 'postgres'
  contentSource: 'git' | 'worktree'
  /** The bare content repository the server owns; null when its content services are off. */
  contentGitDir: string | null
  contentRemote: string | null
}

export function runDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[RUN_DIR_ENV] || join(tmpdir(), `funnelworks-${process.getuid?.() ?? 'user'}`)
}

/** Writes this process's run file; returns its removal. Never throws: a server runs without one. */
export function registerRunningServer(
  info: Omit<ServerRunInfo, 'pid' | 'startedAt'>,
  dir = runDir(),
): { remove(): void; error: string | null } {
  const file = join(dir, `${process.pid}.json`)
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const entry: ServerRunInfo = { ...info, pid: process.pid, startedAt: processStartTime(process.pid) }
    writeFileSync(file, JSON.stringify(entry), { mode: 0o600 })
  } catch (e) {
    return { remove: () => {}, error: `${file}: ${(e as Error).message}` }
  }
  // Also on any exit that skips the graceful close (a second signal, process.exit); a kill -9 leaves a
  // stale file, which the next reader removes.
  const remove = () => {
    process.off('exit', remove)
    rmSync(file, { force: true })
  }
  process.on('exit', remove)
  return { remove, error: null }
}

/** The live servers that run from `projectRoot` (stale run files of dead processes are removed). */
export function runningServers(projectRoot: string, dir = runDir()): ServerRunInfo[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => /^\d+\.json$/.test(n))
  } catch {
    return []
  }
  const out: ServerRunInfo[] = []
  for (const name of names.sort()) {
    try {
      const info = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ServerRunInfo
      if (!isRunning(info.pid, info.startedAt)) {
        rmSync(join(dir, name), { force: true })
        continue
      }
      if (info.projectRoot === projectRoot && info.port > 0) out.push(info)
    } catch {
      // A file being written or not ours: skip it.
    }
  }
  return out
}

/** One line naming a running server, for messages. */
export const describeServer = (s: ServerRunInfo) =>
  `pid ${s.pid}, port ${s.port}, DATA_DIR=${s.dataDir}${s.store === 'postgres' ? ' with DATABASE_URL' : ''}`

export class NoSingleServerError extends Error {}

/**
 * The running server a CLI should work through: the one whose `matches` holds when the user named a
 * DATA_DIR (or another location) explicitly; otherwise the only one running from this checkout.
 * Null when none runs (or none matches). Several and nothing named: throws, listing them.
 */
export function pickServer(
  servers: ServerRunInfo[],
  explicit: boolean,
  matches: (s: ServerRunInfo) => boolean,
): ServerRunInfo | null {
  if (explicit) return servers.find(matches) ?? null
  if (servers.length <= 1) return servers[0] ?? null
  throw new NoSingleServerError(
    `several servers run from this checkout (${servers.map(describeServer).join('; ')}): set DATA_DIR to the one you mean`,
  )
}
