/**
 * npm run bench -- experiment-results: an experiment's results over generated events on PostgreSQL —
 * BENCH_EVENTS of them (default 1 M; BENCH_EVENTS=10000000 for 10 M). Target (issue 30): ≤ 300 ms at
 * 10 M, from the rollup (experiment_units, docs/decisions/0312), with the raw query (decision 0902's
 * index-only scan of the exposures, then each browser's conversions) beside it. Printed too: what the
 * rollup job took to catch up with the whole load, and the one-time build of the phase's window.
 */
import { setLogLevel } from '../../server/log'
import { experimentTotalsRaw } from '../../server/store/experiment-results'
import { openStore } from '../../server/store/open-store'
import {
  experimentTotals,
  ROLLUP_BATCH_BROWSERS,
  rebuildRollups,
  refreshRollups,
} from '../../server/store/rollups'
import { dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'
import { BENCH_EXPERIMENT, BENCH_START, benchEvents, generateEvents } from './generate-events'
import type { BenchTargets } from './targets'

/** The results target of issue 30 (at 10 M events). */
const TARGET_MS = 300

export default async function run(targets: BenchTargets): Promise<void> {
  setLogLevel('error')
  const events = benchEvents()
  const pg = uniquePostgresUrl('fw_bench_results')
  const store = await openStore({ databaseUrl: pg.url, dataDir: null })
  try {
    const t0 = performance.now()
    await generateEvents(store.db, events)
    // What the table looks like once autovacuum has passed (decision 0902: the index-only scan needs it).
    await store.db.query('VACUUM ANALYZE events')
    const seedMs = performance.now() - t0
    // The rollup job's catch-up, measured on ten batches of marked browsers; the rest in one pass.
    const t1 = performance.now()
    const browsers = await refreshRollups(store.db, ROLLUP_BATCH_BROWSERS, 10)
    const catchUpMs = performance.now() - t1
    const t2 = performance.now()
    await rebuildRollups(store.db)
    const rebuildMs = performance.now() - t2
    const from = new Date(BENCH_START - 86_400_000)
    const to = new Date(Date.now() + 86_400_000)
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    const time = async (fn: () => Promise<unknown>, runs: number) => {
      const ms: number[] = []
      for (let i = 0; i < runs; i++) {
        const t = performance.now()
        await fn()
        ms.push(performance.now() - t)
      }
      return median(ms)
    }
    const build = await time(() => experimentTotals(store.db, BENCH_EXPERIMENT, from, to), 1)
    await store.db.query('VACUUM ANALYZE experiment_units')
    const rawRuns = events > 2_000_000 ? 1 : 3
    const raw = await time(() => experimentTotalsRaw(store.db, BENCH_EXPERIMENT, from, to), rawRuns)
    const rawUtm = await time(
      () => experimentTotalsRaw(store.db, BENCH_EXPERIMENT, from, to, 'utm_source'),
      rawRuns,
    )
    const rolled = await time(() => experimentTotals(store.db, BENCH_EXPERIMENT, from, to), 5)
    const rolledUtm = await time(
      () => experimentTotals(store.db, BENCH_EXPERIMENT, from, to, 'utm_source'),
      5,
    )
    const a = await experimentTotals(store.db, BENCH_EXPERIMENT, from, to, 'utm_source')
    const b = await experimentTotalsRaw(store.db, BENCH_EXPERIMENT, from, to, 'utm_source')
    const agree = JSON.stringify(a) === JSON.stringify(b)
    const users = a.variants.reduce((s, v) => s + v.users, 0)
    console.log(
      `seeded ${events.toLocaleString('en-US')} events in ${Math.round(seedMs / 1000)} s; the rollup job recomputed ${browsers.toLocaleString('en-US')} marked browsers in ${Math.round(catchUpMs / 1000)} s (${Math.round(browsers / (catchUpMs / 1000)).toLocaleString('en-US')} browsers/s), the drop-off rollup was rebuilt in one pass in ${Math.round(rebuildMs / 1000)} s; ${users.toLocaleString('en-US')} browsers exposed; rollup and raw agree: ${agree ? 'yes' : 'NO'}`,
    )
    const row = (what: string, ms: number, target: boolean) => ({
      what,
      ms: Math.round(ms),
      target: target ? `≤ ${TARGET_MS} at 10 M` : '—',
      met: target
        ? targets.check(what, `${Math.round(ms)} ms`, `≤ ${TARGET_MS} ms at 10 M`, ms <= TARGET_MS)
        : '—',
    })
    console.table([
      row(`raw query, after VACUUM (median of ${rawRuns})`, raw, false),
      row(`raw by utm_source (median of ${rawRuns})`, rawUtm, false),
      row("the phase's window built once, on its first ask", build, false),
      row('rollup, with its catch-up (median of 5)', rolled, true),
      row('rollup by utm_source (median of 5)', rolledUtm, true),
    ])
    console.table(a.variants)
  } finally {
    await store.close()
    await dropPostgresSchema(pg.schema)
  }
}
