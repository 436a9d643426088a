/**
 * Walks one model path of a funnel (tests/model/funnel-paths.ts) in Chromium against a running
 * server, move by move as a person would: answers, skips, the form's back button, the browser's back
 * button. Used by `npm run paths -- <funnel> --replay N --base URL`.
 */
import type { Page } from 'playwright-core'
import type { FunnelSnapshot, GraphEvent } from '../../engine/funnel/funnel-graph'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import type { FunnelModelPath } from '../model/funnel-paths'
import { launchBrowser, routeThirdParties } from './browser'
import { currentStepName, waitForLive } from './funnel-driver'

const MOVE_TIMEOUT_MS = 15_000

/** Fills the step on screen with the move's values; a one-question step submits when chosen. */
async function submit(page: Page, funnel: ResolvedFunnel, values: Record<string, unknown>): Promise<void> {
  const step = funnel.steps.find((s) => s.name === values.__step)!
  const single = step.fields.length === 1 && ['yes-no', 'choice'].includes(step.fields[0].kind)
  let chose = false
  for (const field of step.fields) {
    const value = values[field.name]
    const group = page.locator(`fieldset:has(#field-${field.name}) button`)
    if (field.kind === 'yes-no') {
      if (value === true || value === false) {
        await group.filter({ hasText: value ? funnel.text.funnel.yes : funnel.text.funnel.no }).click()
        chose = true
      }
    } else if (field.kind === 'choice') {
      const option = field.options?.find((o) => o.value === value)
      if (option) {
        await group.filter({ hasText: option.label }).click()
        chose = true
      }
    } else await page.fill(`#field-${field.name}`, String(value ?? ''))
  }
  if (single && chose) return
  // A one-question step without an answer has no submit button: submit the form as Enter would.
  if (single) await page.locator('.funnel-form').evaluate((f) => (f as HTMLFormElement).requestSubmit())
  else await page.locator('.funnel-submit').click()
}

/** Walks path `fp` from `origin` + `pagePath`; prints each move; resolves with the final URL. */
export async function replayFunnelPath(
  funnel: ResolvedFunnel,
  fp: FunnelModelPath,
  origin: string,
  pagePath: string,
  print: (line: string) => void,
): Promise<string> {
  const browser = await launchBrowser()
  try {
    const context = await browser.newContext()
    await routeThirdParties(context)
    const page = await context.newPage()
    page.setDefaultTimeout(MOVE_TIMEOUT_MS)
    const { input } = fp
    const start = `${origin}${pagePath}${input.stepParam === undefined ? '' : `/${input.stepParam}`}${input.search}`
    print(`  0. open ${start}`)
    await page.goto(start)
    await waitForLive(page)
    const steps = fp.path.steps
    let moveNumber = 0
    for (const [i, s] of steps.entries()) {
      const e = s.event as GraphEvent
      if (i === 0 || e.type.startsWith('xstate.done.actor.')) continue
      const before = steps[i - 1].state as unknown as FunnelSnapshot
      const stepName = funnel.steps[before.context.stepIndex].name
      const shown = await currentStepName(page)
      if (shown !== stepName) throw new Error(`expected step ${stepName} on screen, found ${shown}`)
      let move: string
      if (e.type === 'SUBMIT') {
        move = `answer ${stepName}${e.note ? ` (${e.note})` : ''}`
        await submit(page, funnel, { ...(e.values ?? {}), __step: stepName })
      } else if (e.type === 'SKIP') {
        move = `skip ${stepName}`
        await page.locator('.funnel-skip').click()
      } else if (e.type === 'BACK') {
        move = 'form back button'
        await page.getByRole('button', { name: funnel.text.funnel.back }).click()
      } else if (e.type === 'POPSTATE') {
        move = 'browser back button'
        await page.goBack()
      } else continue
      // Where the model says this move leads: the next stable state after the machine's own steps.
      let j = i
      while (j + 1 < steps.length && steps[j + 1].event.type.startsWith('xstate.done.actor.')) j++
      const next = steps[j].state as unknown as FunnelSnapshot
      if (next.status === 'done') {
        const exit = new URL(next.context.exit ?? '/', origin).pathname
        await page.waitForURL((u) => u.pathname === exit)
        await page.waitForLoadState('load')
      } else {
        const want = funnel.steps[next.context.stepIndex].name
        await page.waitForFunction(
          (name) => document.querySelector('.funnel-form')?.getAttribute('data-step') === name,
          want,
        )
        if (e.type === 'SUBMIT' && e.note === 'invalid')
          await page.locator('.field-error').first().waitFor({ state: 'visible' })
      }
      moveNumber++
      print(`  ${moveNumber}. ${move} → ${page.url()}`)
    }
    const end = page.url()
    const last = steps.at(-1)!.state as unknown as FunnelSnapshot
    if (last.status === 'done') print(`ends on ${new URL(end).pathname} (${await page.title()})`)
    else print(`ends on step ${funnel.steps[last.context.stepIndex].name} (${end})`)
    return end
  } finally {
    await browser.close()
  }
}
