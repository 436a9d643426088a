/**
 * axe-core in the e2e tests, one way: the serious and critical violations of a page (or of a part of
 * it), as readable lines. axe is injected once per document and run in it directly: the
 * @axe-core/playwright builder re-injected its 0.5 MB source and opened a new tab to combine frame
 * results on every call (5–8 s a check on a busy 2-core machine, against under 1 s here). Frames are
 * not entered: the only ones are the control center's previews of brand pages, which are checked on
 * their own.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Found {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

export async function seriousViolations(page: Page, opts: { include?: string } = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  const found = await page.evaluate(async (include): Promise<Found[]> => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe
    const result = await axe.run(include ? { include: [include] } : document, {
      resultTypes: ['violations'],
      iframes: false,
    })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }))
  }, opts.include ?? null)
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join(', ')}`)
}
