/** Drives any funnel page in Chromium from its definition: answers or skips whatever step is shown. */
import type { Page } from 'playwright-core'
import { validValue } from '../../engine/funnel/sample-values'
import type { ResolvedFunnel } from '../../engine/snapshot/types'

export interface RecordedEvent {
  kind: 'track' | 'pageView'
  event?: string
  properties?: Record<string, unknown>
  page?: { name: string; template: string; stepName?: string }
}

/** Collects the funnel's announced events across page loads (exposeFunction survives navigation). */
export async function recordFunnelEvents(page: Page): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = []
  await page.exposeFunction('__recordFunnelEvent', (e: RecordedEvent) => events.push(e))
  await page.addInitScript(() => {
    window.addEventListener('funnelworks:funnel-event', (e) =>
      (window as unknown as { __recordFunnelEvent: (d: unknown) => void }).__recordFunnelEvent(
        (e as CustomEvent).detail,
      ),
    )
  })
  return events
}

export async function waitForLive(page: Page): Promise<void> {
  await page.waitForSelector('.funnel[data-live="true"]')
}

export async function currentStepName(page: Page): Promise<string> {
  return (await page.locator('.funnel-form').getAttribute('data-step'))!
}

/**
 * Answers the step on screen validly and submits it (choosing on a one-question step submits); Yes
 * to every yes-no question, in the funnel's language.
 */
export async function answerStep(page: Page, funnel: ResolvedFunnel): Promise<void> {
  const name = await currentStepName(page)
  const step = funnel.steps.find((s) => s.name === name)!
  for (const field of step.fields) {
    const value = validValue(field)
    if (field.kind === 'yes-no')
      await page
        .locator(`fieldset:has(#field-${field.name}) button`, { hasText: funnel.text.funnel.yes })
        .click()
    else if (field.kind === 'choice') {
      const label = field.options!.find((o) => o.value === value)!.label
      await page.locator(`fieldset:has(#field-${field.name}) button`, { hasText: label }).click()
    } else await page.fill(`#field-${field.name}`, String(value))
  }
  const single = step.fields.length === 1 && ['yes-no', 'choice'].includes(step.fields[0].kind)
  if (!single) await page.locator('.funnel-submit').click()
}

/** Walks the funnel until the browser leaves `base` (the funnel's path); skips where allowed when `skip` is set. */
export async function completeFunnel(
  page: Page,
  funnel: ResolvedFunnel,
  base: string,
  opts: { skip?: boolean } = {},
): Promise<string[]> {
  const visited: string[] = []
  const left = () => !new URL(page.url()).pathname.startsWith(`${base}/`)
  for (let guard = 0; guard < funnel.steps.length * 2; guard++) {
    if (visited.length > 0 && left()) return visited
    await waitForLive(page)
    const name = await currentStepName(page)
    visited.push(name)
    const step = funnel.steps.find((s) => s.name === name)!
    const before = page.url()
    if (opts.skip && step.skippable) await page.getByRole('button', { name: funnel.text.funnel.skip }).click()
    else await answerStep(page, funnel)
    await page.waitForURL((u) => u.toString() !== before)
  }
  if (left()) return visited
  throw new Error(`did not leave ${base}; visited ${visited.join(', ')}; at ${page.url()}`)
}
