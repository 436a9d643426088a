/**
 * Lighthouse's mobile preset through its CLI when it is installed (it is not a dependency: ~90 MB for
 * a figure the bench prints only; `npm i -D lighthouse` enables it). Chromium resolves *.localhost
 * itself, so the brand host needs no DNS.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PROJECT_ROOT } from '../../tests/e2e/server-process'

const CLI = join(PROJECT_ROOT, 'node_modules', '.bin', 'lighthouse')

export async function runLighthouse(url: string): Promise<string> {
  const cli = process.env.LIGHTHOUSE_CLI ?? CLI
  if (!existsSync(cli))
    return 'skipped: lighthouse is not installed (npm i -D lighthouse, or set LIGHTHOUSE_CLI)'
  const out = join(mkdtempSync(join(tmpdir(), 'lh-')), 'report.json')
  const r = spawnSync(
    cli,
    [
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
      timeout: 180_000,
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
