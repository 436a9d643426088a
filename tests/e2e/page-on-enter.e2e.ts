import { rmSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { opsClient } from './ops-client'
import { newDataDir, type ServerProcess, startServerProcess } from './server-process'

// A server on a fixture set whose page has on-enter actions, smid/xsmid and a {token} path segment.
let server: ServerProcess
let browser: Browser
const dataDir = newDataDir('fw-on-enter-')
beforeAll(async () => {
  server = await startServerProcess({
    DEFINITIONS_DIR: 'tests/fixtures/definitions-tracking',
    DATA_DIR: dataDir,
  })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('page on-enter (spec point 2) and the {token} path segment', () => {
  it('runs the track action once after hydration, skips what a page cannot run, and counts the path token', async () => {
    const ops = opsClient(dataDir)
    const context = await browser.newContext()
    await routeThirdParties(context)
    const { page, pageErrors } = await newPage(context)
    const warnings: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text())
    })
    const token = 'T'.repeat(15)
    await page.goto(brandUrl('m10', server.port, `/offer/${token}?utm_campaign=spring`))
    await page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const visitor = (await page.evaluate(() => window.__funnelworks?.visitor())) as VisitorRecord
    expect(visitor.session).toMatchObject({ paid: true, urlParams: { utm_campaign: 'spring', token } })
    const ofSession = async () =>
      (await ops.latestEvents(100)).filter((e) => e.session_id === visitor.session.id)
    await expect.poll(async () => (await ofSession()).length, { timeout: 10_000 }).toBe(2)
    // Still two a moment later: nothing ran twice.
    await page.waitForTimeout(1000)
    const events = await ofSession()
    expect(events.map((e) => e.name).sort()).toEqual(['landedOnOffer', 'offer'])
    const landed = events.find((e) => e.name === 'landedOnOffer')!
    expect(landed.type).toBe('track')
    expect(landed.body.properties).toMatchObject({
      variant: 'a',
      page: {
        name: 'offer',
        smid: 'smid-offer-m10',
        xsmid: 'xsmid-offer-m10',
        product: 'Grocery card',
        benefits: ['groceries', 'otc'],
        template: 'landing',
      },
      cookies: { _ga: null, _fbp: null, _ga_M10B4X7RQ2: null },
      brand: { id: 'm10', measurementId: 'G-M10B4X7RQ2' },
    })
    expect(warnings.some((w) => w.includes('"demand-check" only runs in a funnel step'))).toBe(true)
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
