import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/** Runs git on the bare repository `gitDir`; its stderr becomes the error. */
export function git(gitDir: string, args: string[]): string {
  try {
    return execFileSync('git', ['--git-dir', gitDir, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
    })
  } catch (e) {
    const err = e as { stderr?: string; message: string }
    throw new Error(`git ${args[0]} in ${gitDir}: ${(err.stderr || err.message).trim()}`)
  }
}

/** Every ref of the repository (name → commit), or null when there is no repository. */
export function readRefs(gitDir: string): Record<string, string> | null {
  if (!existsSync(gitDir)) return null
  const refs: Record<string, string> = {}
  for (const line of git(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)']).split('\n')) {
    const [sha, name] = line.split(' ')
    if (sha && name) refs[name] = sha
  }
  return refs
}

/** The branch HEAD names (refs/heads/…), or null when it names none. */
export function readHead(gitDir: string): string | null {
  try {
    return git(gitDir, ['symbolic-ref', '-q', 'HEAD']).trim() || null
  } catch {
    return null
  }
}

/** The refs a bundle file holds (name → commit). */
export function bundleRefs(gitDir: string, bundle: string): Record<string, string> {
  const refs: Record<string, string> = {}
  for (const line of git(gitDir, ['bundle', 'list-heads', bundle]).split('\n')) {
    const [sha, name] = line.split(' ')
    if (sha && name?.startsWith('refs/')) refs[name] = sha
  }
  return refs
}

export const sameRefs = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v)

/** Whether `commit` is reachable from one of the repository's refs. */
export function reachable(gitDir: string, commit: string): boolean {
  try {
    return git(gitDir, ['for-each-ref', '--count=1', '--contains', commit]).trim() !== ''
  } catch {
    return false
  }
}
