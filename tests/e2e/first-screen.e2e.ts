/**
 * Paid traffic is mostly phones: on a funnel page at 375×812, the step's question, its first input
 * and its submit button are on the first screen when the visitor arrives, and again after each submit
 * (the new step lands in view, not the middle of the page). Every funnel page on its first brand; every
 * step of one page per funnel.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { PageEntry, ResolvedFunnel } from '../../engine/snapshot/types'
import { funnelCatalogue } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'
import { answerStep, currentStepName, waitForLive } from './funnel-driver'

const port = inject('port')
const PHONE = { width: 375, height: 812 }
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const basePath = (p: PageEntry) => p.path.replace(/\/\{[^}]+\?\}$/, '')
const pages = funnelCatalogue()
  .flatMap(({ funnel, pages }) => pages.map((page) => ({ funnel, page })))
  .filter(({ page }) => page.brands.length > 0 && !/\{(?!step\?)/.test(page.path))

/** What of the step is outside the viewport: the question, the first control, the submit (or choices). */
async function outOfView(tab: Page): Promise<string[]> {
  return tab.evaluate(() => {
    const form = document.querySelector('.funnel-form')
    const pick = (sel: string) => form?.querySelector<HTMLElement>(sel) ?? null
    const parts: [string, HTMLElement | null][] = [
      ['question', pick('.funnel-question')],
      ['first input', pick('input, select, textarea, fieldset button')],
      ['submit', pick('.funnel-submit') ?? pick('fieldset button')],
    ]
    return parts
      .filter(([, el]) => {
        if (!el) return true
        const r = el.getBoundingClientRect()
        return r.top < 0 || r.bottom > window.innerHeight || r.height === 0
      })
      .map(([name]) => `${name} (step ${form?.getAttribute('data-step')})`)
  })
}

async function walk(tab: Page, funnel: ResolvedFunnel, base: string, allSteps: boolean) {
  const problems: string[] = []
  for (let guard = 0; guard < funnel.steps.length * 2; guard++) {
    await waitForLive(tab)
    problems.push(...(await outOfView(tab)))
    if (!allSteps) break
    const before = tab.url()
    const step = await currentStepName(tab)
    await answerStep(tab, funnel)
    await tab.waitForURL((u) => u.toString() !== before)
    if (!new URL(tab.url()).pathname.startsWith(`${base}/`)) break
    // The new step renders after the URL changes: measure once it is on screen.
    await tab.waitForFunction(
      (name) => document.querySelector('.funnel-form')?.getAttribute('data-step') !== name,
      step,
    )
  }
  return problems
}

describe('the first question is on the first screen of a phone', () => {
  it.each(
    pages.map(({ funnel, page }, i) => [`${page.brands[0]} ${basePath(page)}`, funnel, page, i] as const),
  )('%s', async (_, funnel, page, i) => {
    const firstOfFunnel = pages.findIndex((p) => p.funnel.id === funnel.id) === i
    const ctx = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
    await routeThirdParties(ctx)
    const tab = await ctx.newPage()
    await tab.goto(brandUrl(page.brands[0], port, basePath(page)))
    expect(await walk(tab, funnel, basePath(page), firstOfFunnel)).toEqual([])
    await ctx.close()
  })
})
