/**
 * The lead the marketplace receives is complete (issue 18): after a Medicare funnel on m10, every
 * get-phone request of the session — the server's when the funnel finishes (docs/decisions/0235) and a
 * later page's — carries the answers the visitor gave (spec point 7's Medicare payload:
 * currently_insured ← haveMedicare, dsnp ← haveMedicaid, zip ← zipcode), read from the answers the
 * server holds.
 */
import { DateTime } from 'luxon'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../fixtures/marketplace-simulator/simulator'
import { funnelCatalogue } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { completeFunnel } from './funnel-driver'
import { type ServerProcess, startServerProcess } from './server-process'

const LA = 'America/Los_Angeles'
const TUESDAY_10 = DateTime.fromISO('2026-11-24T10:00', { zone: LA }).toMillis()

let sim: MarketplaceSimulator
let server: ServerProcess
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  sim = await startMarketplaceSimulator()
  sim.setClock(TUESDAY_10)
  server = await startServerProcess({ MEDIAALPHA_BASE_URL: sim.url, MEDIAALPHA_RATE_LIMIT: '1000' })
  browser = await launchBrowser()
  context = await browser.newContext({ timezoneId: LA, viewport: { width: 1280, height: 800 } })
  await routeThirdParties(context)
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await sim?.close()
})

const getPhones = (pathname: string) =>
  sim.requests
    .filter((r) => r.path === '/get-phone')
    .map((r) => r.body as { url: string; data: Record<string, unknown> })
    .filter((b) => new URL(b.url).pathname === pathname)

it('the thank-you page and every later page lease the phone with every answer of the funnel', async () => {
  const entry = funnelCatalogue().find(({ funnel }) => funnel.id === 'quiz-otc')!
  const { page, pageErrors } = await newPage(context)
  await page.clock.install({ time: TUESDAY_10 })
  await page.goto(brandUrl('m10', server.port, '/quiz/otc'))
  // The funnel driver answers Yes to every yes-no question and 90210 for the ZIP code.
  const visited = await completeFunnel(page, entry.funnel, '/quiz/otc')
  expect(visited).toEqual(expect.arrayContaining(['zip', 'medicare', 'medicaid']))
  await page.waitForURL((u) => u.pathname === '/thank-you')
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  // The marketplace's flags are 1 and 0 (engine/phone/field-rules.ts).
  const answers = { currently_insured: 1, dsnp: 1, zip: '90210' }
  await expect.poll(() => getPhones('/thank-you').length, { timeout: 10_000 }).toBeGreaterThan(0)
  for (const body of getPhones('/thank-you')) expect(body.data).toEqual(answers)

  // Any later page of the session: the home page leases with the same answers.
  await page.goto(brandUrl('m10', server.port, '/'))
  await expect.poll(() => getPhones('/').length, { timeout: 10_000 }).toBeGreaterThan(0)
  for (const body of getPhones('/')) expect(body.data).toEqual(answers)
  expect(pageErrors).toEqual([])
  await page.close()
}, 90_000)
