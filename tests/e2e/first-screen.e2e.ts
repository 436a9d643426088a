/**
 * Every funnel page of the catalogue, on its first brand, walked in Chromium on a phone (375×812,
 * where paid traffic mostly is): the shortest complete path reaches the destination, every step is
 * posted in place by the form island (docs/decisions/0524), no script error — and on each step the question, its first input and its submit
 * button are on the first screen when the visitor arrives there (the new step lands in view, not the
 * middle of the page). The form island (checks, history, the slow-phone start-up) is in funnel-island.e2e.ts.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { completeFunnel, exitsOf, funnelBase, funnelPages, typedAnswers } from './funnel-driver'

const port = inject('port')
const PHONE = { width: 375, height: 812 }
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const pages = funnelPages()

it('finds funnel pages to run', () => expect(pages.length).toBeGreaterThan(0))

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

describe('every funnel page on a phone: complete path, each step on the first screen', () => {
  it.each(
    pages.map(
      ({ funnel, page }) => [`${page.brands[0]} ${funnelBase(page)} (${funnel.id})`, funnel, page] as const,
    ),
  )('%s', async (_, funnel, page) => {
    const base = funnelBase(page)
    const ctx = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
    await routeThirdParties(ctx)
    const { page: tab, pageErrors } = await newPage(ctx)
    const requests: { method: string; url: string; type: string }[] = []
    tab.on('request', (r) => requests.push({ method: r.method(), url: r.url(), type: r.resourceType() }))
    await tab.goto(brandUrl(page.brands[0], port, base))
    const problems: string[] = []
    const visited = await completeFunnel(tab, funnel, base, {
      onStep: async () => {
        problems.push(...(await outOfView(tab)))
      },
    })
    expect(problems).toEqual([])
    expect(exitsOf(funnel, page)).toContain(new URL(tab.url()).pathname)
    // The form island posted every step in place (fetch, one per step; the server ran the funnel):
    // no step was a page load of its own, and no request URL made by the page holds an answer.
    const posts = requests.filter((r) => r.method === 'POST' && !new URL(r.url).pathname.startsWith('/api/'))
    expect(posts.map((r) => r.type)).toEqual(visited.map(() => 'fetch'))
    for (const answer of typedAnswers(funnel))
      for (const { url } of requests) expect(decodeURIComponent(url)).not.toContain(answer)
    expect(pageErrors).toEqual([])
    await ctx.close()
  })
})
