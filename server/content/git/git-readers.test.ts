/**
 * The shared git readers survive their process dying (issue 27, docs/decisions/0706): the one
 * `git cat-file --batch` every request reads through, killed or made to exit by one bad name, and a
 * reading git command killed by a signal. No read but the bad one fails.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CatFileBatch } from './cat-file-batch'
import { ContentRepo } from './content-repo'
import { runGit } from './git-process'

/** Our own git child processes whose command line has every one of `words`. */
function gitChildren(...words: string[]): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid !== process.pid) continue
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (cmdline[0] === 'git' && words.every((w) => cmdline.some((a) => a.includes(w))))
        pids.push(Number(entry))
    } catch {}
  }
  return pids
}

describe('shared git readers', () => {
  let dir: string
  let gitDir: string
  let repo: ContentRepo
  let commit: string
  /** path → content of the commit's files. */
  const files = new Map<string, string>()

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-git-readers-'))
    gitDir = join(dir, 'content.git')
    repo = await ContentRepo.open(gitDir)
    for (let i = 0; i < 40; i++) files.set(`definitions/f${i}.json`, `{"n": ${i}}\n`)
    // A big file keeps the process busy long enough to be killed mid-answer.
    files.set('definitions/big.json', `"${'x'.repeat(4_000_000)}"\n`)
    commit = await repo.commitFiles(
      null,
      [...files].map(([path, content]) => ({ path, content })),
      'files',
    )
  }, 30_000)
  afterAll(() => {
    repo?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const readAll = (batch: CatFileBatch, times: number) =>
    Array.from({ length: times }, (_, i) => {
      const path = [...files.keys()][i % files.size]
      return batch.read(`${commit}:${path}`).then((o) => ({ path, text: o?.data.toString('utf8') }))
    })

  it('a name git dies on fails alone: the reads around it succeed on a new process', async () => {
    const batch = new CatFileBatch(gitDir)
    try {
      const before = readAll(batch, 60)
      // "relative path syntax can't be used outside working tree": git cat-file exits (128).
      const bad = batch.read(`${commit}:../`)
      const after = readAll(batch, 60)
      await expect(bad).rejects.toThrow(/cat-file --batch exited \(128\).*relative path/s)
      for (const r of await Promise.all([...before, ...after])) expect(r.text).toBe(files.get(r.path))
      // …and the process keeps serving.
      expect((await batch.read(`${commit}:definitions/f1.json`))?.data.toString()).toBe(
        files.get('definitions/f1.json'),
      )
    } finally {
      batch.close()
    }
  })

  it('reads in flight when the process is killed all succeed', async () => {
    const batch = new CatFileBatch(gitDir)
    try {
      await batch.read(commit)
      const [pid] = gitChildren(gitDir, 'cat-file', '--batch')
      expect(pid).toBeGreaterThan(0)
      const reads = readAll(batch, 120)
      await reads[0]
      process.kill(pid, 'SIGKILL')
      for (const r of await Promise.all(reads)) expect(r.text).toBe(files.get(r.path))
      expect(gitChildren(gitDir, 'cat-file', '--batch')).not.toContain(pid)
    } finally {
      batch.close()
    }
  })

  it('many bad names among many good reads: only the bad ones fail', async () => {
    const batch = new CatFileBatch(gitDir)
    try {
      const good = readAll(batch, 200)
      const bad = Array.from({ length: 5 }, (_, i) => batch.read(`${commit}:${i % 2 ? './x' : '../'}`))
      good.push(...readAll(batch, 200))
      const settled = await Promise.allSettled(bad)
      expect(settled.every((s) => s.status === 'rejected')).toBe(true)
      for (const r of await Promise.all(good)) expect(r.text).toBe(files.get(r.path))
    } finally {
      batch.close()
    }
  })

  it('a reading git command killed by a signal runs once more', async () => {
    // 20 000 names on stdin keep `cat-file --batch-check` busy long enough to be killed.
    const names = `${`${commit}:definitions/f1.json\n`.repeat(20_000)}`
    const run = runGit(gitDir, ['cat-file', '--batch-check'], { input: names })
    let killed = 0
    for (let i = 0; i < 200 && !killed; i++) {
      for (const pid of gitChildren(gitDir, 'cat-file', '--batch-check')) {
        process.kill(pid, 'SIGKILL')
        killed = pid
      }
      if (!killed) await new Promise((r) => setTimeout(r, 2))
    }
    expect(killed).toBeGreaterThan(0)
    const { stdout } = await run
    expect(stdout.toString('utf8').split('\n').filter(Boolean)).toHaveLength(20_000)
  })
})
