/**
 * Every funnel page of the catalogue, on its first brand, in Chromium on a phone (375×812, where paid
 * traffic mostly is).
 *
 * One page per funnel shape (funnelShapes: the same steps — names, words, fields, actions — and
 * destination) is walked: the shortest complete path reaches the destination, every step is posted in
 * place by the form island (docs/decisions/0524), no script error — and on each step the question,
 * its first input and its submit button are on the first screen when the visitor arrives there (the
 * new step lands in view, not the middle of the page). Every other funnel page shows its first step
 * on the first screen, hydrated, without a script error: what differs between pages of one shape is
 * above the form (brand, headline, picture), which only the arrival screen sees; the later steps are
 * the same form with the same words, landing where the island puts them, walked on the shape's page.
 * What the server answers to each step of every funnel is funnel-http.model's. The form island
 * (checks, history, the slow-phone start-up) is in funnel-island.e2e.ts.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { funnelShapes } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { completeFunnel, exitsOf, funnelBase, funnelPages, typedAnswers, waitForLive } from './funnel-driver'

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
/** The funnel of each shape whose page is walked: the shape's first funnel that has a page here. */
const walkedFunnels = new Set(
  funnelShapes().flatMap(({ funnel, same }) => {
    const first = [funnel.id, ...same].find((id) => pages.some((p) => p.funnel.id === id))
    return first ? [first] : []
  }),
)
const walked = pages.filter(
  ({ funnel }, i) => walkedFunnels.has(funnel.id) && pages.findIndex((p) => p.funnel.id === funnel.id) === i,
)
const arrivals = pages.filter((p) => !walked.includes(p))
const nameOf = ({ funnel, page }: (typeof pages)[number]) =>
  `${page.brands[0]} ${funnelBase(page)} (${funnel.id})`

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

it('walks one page of every funnel shape and opens every other funnel page', () => {
  expect(walked).toHaveLength(funnelShapes().length)
  expect(walked.length + arrivals.length).toBe(pages.length)
})

describe('one funnel page per shape on a phone: complete path, each step on the first screen', () => {
  it.each(walked.map((p) => [nameOf(p), p.funnel, p.page] as const))('%s', async (_, funnel, page) => {
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

describe('every other funnel page on a phone: its first step on the first screen', () => {
  it.each(arrivals.map((p) => [nameOf(p), p.page] as const))('%s', async (_, page) => {
    const ctx = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true })
    await routeThirdParties(ctx)
    const { page: tab, pageErrors } = await newPage(ctx)
    await tab.goto(brandUrl(page.brands[0], port, funnelBase(page)))
    await waitForLive(tab)
    expect(await outOfView(tab)).toEqual([])
    expect(pageErrors).toEqual([])
    await ctx.close()
  })
})
