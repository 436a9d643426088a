import { spawn, spawnSync } from 'node:child_process'

/** A git command failed; the message carries git's own words. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    /** The signal that ended the process (it was killed, not refused). */
    readonly signal: NodeJS.Signals | null = null,
  ) {
    super(`git ${args.join(' ')} failed (${signal ?? exitCode}): ${stderr.trim()}`)
  }
}

/**
 * Commands that only read: when one is killed by a signal (not refused by git), it runs once more,
 * so the request it serves never sees another's trouble (docs/decisions/0706).
 */
export const GIT_READ_COMMANDS: ReadonlySet<string> = new Set([
  'cat-file',
  'diff-tree',
  'for-each-ref',
  'log',
  'ls-tree',
  'merge-base',
  'rev-list',
  'rev-parse',
])

/** Debian's git is a dependency of the content repository (docs/decisions/0600). */
export class GitMissingError extends Error {
  constructor() {
    super(
      'git is not installed, and the content repository (CONTENT_SOURCE=git, the control center) needs it: apt-get install -y git',
    )
  }
}

/** Throws GitMissingError when no `git` is on the PATH; returns its version otherwise. */
export function checkGit(): string {
  const r = spawnSync('git', ['--version'], { encoding: 'utf8' })
  if (r.error || r.status !== 0) throw new GitMissingError()
  return r.stdout.trim()
}

export interface GitRunOptions {
  input?: string | Buffer
  env?: Record<string, string>
  /** Exit codes that are answers, not failures (e.g. 1 for `merge-base --is-ancestor`). */
  okCodes?: number[]
}

/** Environment that keeps the user's and system's git configuration out of the content repository. */
const BASE_ENV = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_AUTHOR_NAME: 'Funnelworks Control Center',
  GIT_AUTHOR_EMAIL: 'control-center@funnelworks.invalid',
  GIT_COMMITTER_NAME: 'Funnelworks Control Center',
  GIT_COMMITTER_EMAIL: 'control-center@funnelworks.invalid',
}

/**
 * Runs one git command against a bare repository; resolves stdout and the exit code. A reading
 * command killed by a signal runs once more (GIT_READ_COMMANDS).
 */
export async function runGit(
  gitDir: string,
  args: readonly string[],
  opts: GitRunOptions = {},
): Promise<{ stdout: Buffer; code: number }> {
  try {
    return await runGitOnce(gitDir, args, opts)
  } catch (e) {
    if (e instanceof GitError && e.signal && GIT_READ_COMMANDS.has(args[0]))
      return runGitOnce(gitDir, args, opts)
    throw e
  }
}

function runGitOnce(
  gitDir: string,
  args: readonly string[],
  opts: GitRunOptions,
): Promise<{ stdout: Buffer; code: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, ...args], {
      env: { ...process.env, ...BASE_ENV, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.on('error', (e) =>
      reject((e as NodeJS.ErrnoException).code === 'ENOENT' ? new GitMissingError() : e),
    )
    child.on('close', (code, signal) => {
      if (code === 0 || (code !== null && opts.okCodes?.includes(code)))
        resolve({ stdout: Buffer.concat(out), code })
      else reject(new GitError(args, code, Buffer.concat(err).toString('utf8'), signal))
    })
    child.stdin.on('error', () => {})
    child.stdin.end(opts.input ?? '')
  })
}

/** runGit, stdout as trimmed text. */
export async function git(
  gitDir: string,
  args: readonly string[],
  opts: GitRunOptions = {},
): Promise<string> {
  return (await runGit(gitDir, args, opts)).stdout.toString('utf8').trim()
}
