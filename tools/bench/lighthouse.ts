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

export async function runLighthouse(url: string): Promise<string> {
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
    audits: Record<string, { displayValue?: string }>
  }
  const a = report.audits
  return `score ${Math.round(report.categories.performance.score * 100)}  LCP ${a['largest-contentful-paint']?.displayValue}  TBT ${a['total-blocking-time']?.displayValue}  CLS ${a['cumulative-layout-shift']?.displayValue}`
}
