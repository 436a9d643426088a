/**
 * npm run bench -- content: the control center's content on git (docs/decisions/0600, 0603).
 * Targets (CONTROL-CENTER / issue 14): commit of one file p50 ≤ 100 ms; warm branch snapshot ≤ 100 ms;
 * a publish visible on a second instance ≤ 2 s; RSS flat with many branches (the LRU is capped).
 * Runs against PostgreSQL (TEST_DATABASE_URL, a schema of its own) and a bare remote, like production
 * with several instances.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setField } from '../../engine/control-center/content/set-field'
import { loadConfig } from '../../server/config'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from '../../server/content/content-services'
import { runGit } from '../../server/content/git/git-process'
import { BRANCH_SNAPSHOT_CACHE_SIZE } from '../../server/content/git-snapshot-source'
import { setLogLevel } from '../../server/log'
import { createStaffUser, type StaffUser } from '../../server/store/auth-store'
import { openStore, type Store } from '../../server/store/open-store'
import { dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'
import type { BenchTargets } from './targets'

const GROCERY = 'definitions/pages/grocery.json'
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]
const mb = (n: number) => Math.round(n / 1024 / 1024)

export default async function run(targets: BenchTargets): Promise<void> {
  setLogLevel('error')
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-content-'))
  const pg = uniquePostgresUrl('fw_bench_content')
  const remote = join(dir, 'remote.git')
  await runGit(remote, ['init', '--bare', '-q', remote])
  const instances: { cc: ContentServices; store: Store }[] = []
  const start = async (name: string, contentRemote: string | null = remote) => {
    const config = {
      ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error', DATABASE_URL: pg.url }),
      contentSource: 'git' as const,
      contentGitDir: join(dir, `${name}.git`),
      contentRemote,
    }
    const store = await openStore({ databaseUrl: pg.url, dataDir: null, poolSize: 3 })
    const opened = (await openContent(config)) as OpenedContent
    const cc = startContentServices(opened, store, config)
    instances.push({ cc, store })
    return { cc, store }
  }
  try {
    const a = await start('a')
    const b = await start('b')
    const user: StaffUser = await createStaffUser(a.store.db, {
      email: `bench-${randomUUID()}@x.test`,
      name: 'Bench',
      password: 'pw',
      role: 'admin',
    })
    const { branches } = a.cc
    const edit = async (branch: string, value: string) => {
      const head = await branches.head(branch)
      const text = await a.cc.repository.repo.readText(`${head}:${GROCERY}`)
      await branches.saveDraft(user, branch, GROCERY, setField(text!, '/headline', value))
      return (await branches.commit(user, branch, { message: value, expectedHead: head })).commit
    }

    // Commit of one file: autosaved draft → one commit (pushed to the remote).
    await branches.createBranch(user, { name: 'bench', title: 'Bench' })
    const commitMs: number[] = []
    for (let i = 0; i < 15; i++) {
      const head = await branches.head('bench')
      const text = await a.cc.repository.repo.readText(`${head}:${GROCERY}`)
      await branches.saveDraft(user, 'bench', GROCERY, setField(text!, '/headline', `Headline ${i}`))
      const t = performance.now()
      await branches.commit(user, 'bench', { message: `Headline ${i}`, expectedHead: head })
      commitMs.push(performance.now() - t)
    }

    // The same on one instance without a remote (no push): what a single server pays.
    const single = await start('single', null)
    await single.cc.branches.createBranch(user, { name: 'bench-single', title: 'Bench' })
    const singleMs: number[] = []
    for (let i = 0; i < 15; i++) {
      const sb = single.cc.branches
      const head = await sb.head('bench-single')
      const text = await single.cc.repository.repo.readText(`${head}:${GROCERY}`)
      await sb.saveDraft(user, 'bench-single', GROCERY, setField(text!, '/headline', `Headline ${i}`))
      const t = performance.now()
      await sb.commit(user, 'bench-single', { message: `Headline ${i}`, expectedHead: head })
      singleMs.push(performance.now() - t)
    }

    // Branch snapshots: a commit never built (cold), then the same again (warm: the LRU).
    const coldMs: number[] = []
    const warmMs: number[] = []
    for (let i = 0; i < 5; i++) {
      const head = await edit('bench', `Snapshot ${i}`)
      let t = performance.now()
      const r = await a.cc.branchSnapshots.get(head)
      coldMs.push(performance.now() - t)
      if (!r.ok) throw new Error('branch does not validate')
      t = performance.now()
      await branches.snapshot('bench')
      warmMs.push(performance.now() - t)
    }

    // Publish on A → B serving it (NOTIFY, fetch from the remote, build, swap).
    const visibleMs: number[] = []
    const publishMs: number[] = []
    for (let i = 0; i < 5; i++) {
      const name = `pub-${i}`
      await branches.createBranch(user, { name, title: name })
      const head = await edit(name, `Published ${i}`)
      const t = performance.now()
      const p = await a.cc.publisher.publish(user, name, { expectedHead: head })
      publishMs.push(performance.now() - t)
      while (b.cc.live.commit !== p.newCommit) {
        if (performance.now() - t > 60_000) throw new Error('second instance never served the publication')
        await new Promise((r) => setTimeout(r, 5))
      }
      visibleMs.push(performance.now() - t)
    }

    // Memory with many branches: every branch's snapshot built once; the LRU keeps the newest only.
    const memory: { branches: number; rssMb: number; heapMb: number; cached: number }[] = []
    const sample = (n: number) => {
      globalThis.gc?.()
      const m = process.memoryUsage()
      memory.push({
        branches: n,
        rssMb: mb(m.rss),
        heapMb: mb(m.heapUsed),
        cached: a.cc.branchSnapshots.size,
      })
    }
    const total = BRANCH_SNAPSHOT_CACHE_SIZE * 4
    for (let i = 1; i <= total; i++) {
      const name = `many-${i}`
      await branches.createBranch(user, { name, title: name })
      await edit(name, `Branch ${i}`)
      await branches.snapshot(name)
      if (i === BRANCH_SNAPSHOT_CACHE_SIZE || i === total / 2 || i === total) sample(i)
    }

    const checked = (what: string, ms: number, limit: number | null) => ({
      what,
      ms: Math.round(ms),
      target: limit === null ? '' : `≤ ${limit}`,
      met: limit === null ? '' : targets.check(what, `${Math.round(ms)} ms`, `≤ ${limit} ms`, ms <= limit),
    })
    console.table([
      checked('commit of one file, one instance (drafts → commit), p50', pct(singleMs, 0.5), 100),
      checked('commit of one file, several instances (drafts → commit → push), p50', pct(commitMs, 0.5), 100),
      checked('commit of one file, p95', pct(commitMs, 0.95), null),
      checked('branch snapshot, cold (commit not built yet), p50', pct(coldMs, 0.5), null),
      checked('branch snapshot, warm (LRU hit), p50', pct(warmMs, 0.5), 100),
      checked('publish (lock, validate, ref, row, NOTIFY, swap), p50', pct(publishMs, 0.5), null),
      checked('publish → second instance serving it, p50', pct(visibleMs, 0.5), 2000),
      checked('publish → second instance serving it, max', Math.max(...visibleMs), null),
    ])
    console.log(
      `memory with many branches (LRU capped at ${BRANCH_SNAPSHOT_CACHE_SIZE}; run with node --expose-gc for steadier heap figures):`,
    )
    console.table(memory)
  } finally {
    for (const i of instances) {
      await i.cc.close()
      await i.store.close()
    }
    await dropPostgresSchema(pg.schema)
    rmSync(dir, { recursive: true, force: true })
  }
}
