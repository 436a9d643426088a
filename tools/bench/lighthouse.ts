/**
 * Lighthouse's mobile preset through its CLI. It is not a dependency (~200 packages, 185 MB for a
 * figure only the bench prints): a local install (`node_modules/.bin/lighthouse`) or `LIGHTHOUSE_CLI`
 * is used when present, otherwise the pinned version runs through `npx --yes` (fetched from the npm
 * registry into npm's cache on the first bench run). `LIGHTHOUSE=off` skips it. Chromium resolves
 * *.localhost itself, so the brand host needs no DNS.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../../tests/e2e/server-process'

const LOCAL_CLI = join(PROJECT_ROOT, 'node_modules', '.bin', 'lighthouse')
/** The version the figures in docs/decisions/0506 were taken with. */
export const LIGHTHOUSE_VERSION = '12.8.2'

/** The command that runs Lighthouse: a local or configured CLI, else the pinned version via npx. */
function lighthouseCommand(): [string, string[]] {
  const cli = process.env.LIGHTHOUSE_CLI ?? (existsSync(LOCAL_CLI) ? LOCAL_CLI : null)
  return cli ? [cli, []] : ['npx', ['--yes', `lighthouse@${LIGHTHOUSE_VERSION}`]]
}

/** One Lighthouse run's figures: the performance score (0–100) and its metrics in ms. */
export interface LighthouseResult {
  score: number
  lcpMs: number
  tbtMs: number
  cls: number
}

/** Issue 19: Lighthouse mobile ≥ 98 on both pages, LCP no worse than nginx serving the same HTML. */
export const LIGHTHOUSE_SCORE_TARGET = 98
/** Runs per URL (`LIGHTHOUSE_RUNS`); the median is printed: single runs of a page vary by a few points. */
export const LIGHTHOUSE_RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)

/** Runs Lighthouse once; a string says why it could not (skipped, not installed, failed). */
export function runLighthouse(url: string): LighthouseResult | string {
  if (process.env.LIGHTHOUSE === 'off') return 'skipped (LIGHTHOUSE=off)'
  const [command, prefix] = lighthouseCommand()
  const out = join(mkdtempSync(join(tmpdir(), 'lh-')), 'report.json')
  const r = spawnSync(
    command,
    [
      ...prefix,
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance',
      '--chrome-flags=--headless --no-sandbox --disable-gpu',
      '--blocked-url-patterns=*googletagmanager.com*',
      '--blocked-url-patterns=*mediaalpha.com*',
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
      timeout: 300_000, // the first npx run also downloads it
    },
  )
  if (r.status !== 0 || !existsSync(out))
    return `failed: ${(r.stderr || r.stdout || String(r.error)).trim().split('\n').slice(-2).join(' ')}`
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    categories: { performance: { score: number } }
    audits: Record<string, { numericValue?: number }>
  }
  const a = report.audits
  return {
    score: Math.round(report.categories.performance.score * 100),
    lcpMs: a['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: a['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: a['cumulative-layout-shift']?.numericValue ?? Number.NaN,
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/**
 * The median of each figure over `runs` runs (each run alone, one after another), with the scores of
 * every run; a string when a run could not be made.
 */
export function lighthouseMedian(
  url: string,
  runs = LIGHTHOUSE_RUNS,
): { median: LighthouseResult; scores: number[] } | string {
  const results: LighthouseResult[] = []
  for (let i = 0; i < runs; i++) {
    const r = runLighthouse(url)
    if (typeof r === 'string') return r
    results.push(r)
  }
  return {
    median: {
      score: median(results.map((r) => r.score)),
      lcpMs: median(results.map((r) => r.lcpMs)),
      tbtMs: median(results.map((r) => r.tbtMs)),
      cls: median(results.map((r) => r.cls)),
    },
    scores: results.map((r) => r.score),
  }
}

export const formatLighthouse = (r: LighthouseResult) =>
  `score ${r.score}  LCP ${(r.lcpMs / 1000).toFixed(2)} s  TBT ${Math.round(r.tbtMs)} ms  CLS ${r.cls.toFixed(3)}`
