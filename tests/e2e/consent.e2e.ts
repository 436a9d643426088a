/**
 * Consent evidence end to end (issue 17, docs/decisions/0800): a Medicare funnel and an auto funnel
 * walked in Chromium; the consent record stored for the phone step holds exactly the text on screen
 * (its SHA-256 compared), the lead record prints the walk with its content revision, and the TPMO
 * disclaimer shows on the Medicare pages (footer and near the submit button) and not on the auto ones.
 * Screenshots at 1280 and 375 px go to test-results/screenshots/consent/ (kept as CI artifacts).
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import type { LeadStory } from '../../server/store/lead-store'
import { loadSnapshot } from '../model/funnel-catalogue'
import { seriousViolations } from './axe'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { answerStep, currentStepName, waitForLive } from './funnel-driver'
import { opsGet } from './ops-client'
import { PROJECT_ROOT } from './server-process'

const port = inject('port')
const dataDir = inject('dataDir')
const snapshot = loadSnapshot()
const SHOTS = join(PROJECT_ROOT, 'test-results', 'screenshots', 'consent')
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
})

async function leadOf(key: string): Promise<LeadStory> {
  const r = await opsGet(dataDir, `/api/_ops/leads?key=${encodeURIComponent(key)}`)
  expect(r.status).toBe(200)
  return r.json as LeadStory
}

/** The TPMO disclaimers on screen: in the footer and near the submit button. */
const tpmoCount = (tab: Page) => tab.locator('[data-testid="tpmo-disclaimer"]').count()

interface Walk {
  sessionId: string
  shownText: string
  shownVersion: string
}

/** Walks a funnel to its end; on the phone step reads the consent text on screen and takes screenshots. */
async function walk(tab: Page, funnel: ResolvedFunnel, base: string, shot: string): Promise<Walk> {
  let shownText = ''
  let shownVersion = ''
  const left = () => !new URL(tab.url()).pathname.startsWith(`${base}/`)
  for (let guard = 0; guard < funnel.steps.length * 2 && !(shownText && left()); guard++) {
    await waitForLive(tab)
    const name = await currentStepName(tab)
    const current = funnel.steps.find((s) => s.name === name)!
    if (current.fields.some((f) => f.kind === 'tel')) {
      const consent = tab.locator('[data-testid="tcpa-consent"]')
      shownText = (await consent.textContent()) ?? ''
      shownVersion = (await consent.getAttribute('data-consent-version')) ?? ''
      expect(await seriousViolations(tab, { include: '.funnel' })).toEqual([])
      for (const width of [1280, 375]) {
        await tab.setViewportSize({ width, height: 900 })
        await tab.screenshot({ path: join(SHOTS, `${shot}-${width}.png`), fullPage: true })
      }
      await tab.setViewportSize({ width: 1280, height: 900 })
    }
    const before = tab.url()
    await answerStep(tab, funnel)
    await tab.waitForURL((u) => u.toString() !== before)
  }
  expect(left()).toBe(true)
  await tab.waitForSelector('html[data-hydrated="true"]')
  const sessionId = await tab.evaluate(
    () =>
      (
        window as unknown as { __funnelworks: { visitor(): { session: { id: string } } } }
      ).__funnelworks.visitor().session.id,
  )
  return { sessionId, shownText, shownVersion }
}

/** Polls the lead record until its consent record arrived (the queue sends it within seconds). */
async function storyWithConsent(sessionId: string): Promise<LeadStory> {
  for (let i = 0; i < 60; i++) {
    const story = await leadOf(sessionId)
    if (story.entries.some((e) => e.kind === 'consent')) return story
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`no consent record for session ${sessionId}`)
}

const cases = [
  { brand: 'm10', base: '/quiz/otc', funnel: 'quiz-otc', medicare: true },
  { brand: 'tqg', base: '/compare-auto-new', funnel: 'compare-auto-new', medicare: false },
]

describe('consent evidence', () => {
  for (const c of cases)
    it(`${c.brand} ${c.base}: the record holds the text on screen byte for byte, and the lead record prints the walk`, async () => {
      const funnel = snapshot.funnels.get(c.funnel)!
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await routeThirdParties(ctx)
      const { page: tab, pageErrors } = await newPage(ctx)
      await tab.goto(brandUrl(c.brand, port, c.base))
      await waitForLive(tab)
      // The TPMO disclaimer: footer and near the submit button on Medicare pages, nowhere on auto ones.
      expect(await tpmoCount(tab)).toBe(c.medicare ? 2 : 0)
      if (c.medicare) {
        const brand = snapshot.brands.get(c.brand)!
        await expect
          .poll(() => tab.locator('.funnel [data-testid="tpmo-disclaimer"]').textContent())
          .toContain(
            `Currently we represent ${brand.tpmo!.organizations} organizations which offer ${brand.tpmo!.plans} products in your area`,
          )
      }
      const { sessionId, shownText, shownVersion } = await walk(tab, funnel, c.base, `${c.brand}-contact`)
      expect(shownText).toContain(snapshot.brands.get(c.brand)!.ownerLegalName)
      const phoneStep = funnel.steps.find((s) => s.fields.some((f) => f.kind === 'tel'))!
      expect(shownText).toContain(`“${phoneStep.submitLabel}”`)

      const story = await storyWithConsent(sessionId)
      const consents = story.entries.flatMap((e) => (e.kind === 'consent' ? [e.record] : []))
      expect(consents).toHaveLength(1)
      const record = consents[0]
      expect(record.text).toBe(shownText)
      expect(record.text_sha256).toBe(sha256(shownText))
      expect(record.version).toBe(shownVersion)
      expect(record.brand_id).toBe(c.brand)
      expect(record.step_name).toBe('contact')
      expect(record.fields).toEqual(['email', 'phone'])
      expect(record.snapshot_id).toBe(snapshot.id)
      expect(record.user_agent).toContain('Chrome')
      expect(record.ip).toBeTruthy()
      expect(story.revisions.map((r) => r.snapshotId)).toEqual([snapshot.id])
      const seen = story.entries.flatMap((e) =>
        e.kind === 'event' && e.event.type === 'page' ? [e.event] : [],
      )
      expect(seen.length).toBeGreaterThanOrEqual(funnel.steps.length - 1)
      for (const e of seen) expect((e.body.properties as { revision?: string }).revision).toBe(snapshot.id)

      // The CLI a reviewer runs, against the running server's data folder.
      const cli = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'leads.ts'), 'show', sessionId],
        {
          cwd: PROJECT_ROOT,
          encoding: 'utf8',
          env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production' },
        },
      )
      expect(cli.stderr).not.toMatch(/leads:/)
      expect(cli.status).toBe(0)
      expect(cli.stdout).toContain(`snapshot ${snapshot.id}`)
      expect(cli.stdout).toContain(`rev ${snapshot.id}`)
      expect(cli.stdout).toContain('CONSENT GIVEN')
      expect(cli.stdout).toContain(`sha256 ${sha256(shownText)}`)
      expect(cli.stdout).toContain(shownText)
      expect(cli.stdout.indexOf('step submitted')).toBeLessThan(cli.stdout.indexOf('CONSENT GIVEN'))
      const json = spawnSync(
        process.execPath,
        ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'leads.ts'), 'show', sessionId, '--json'],
        {
          cwd: PROJECT_ROOT,
          encoding: 'utf8',
          env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production' },
        },
      )
      expect((JSON.parse(json.stdout) as LeadStory).sessionIds).toEqual([sessionId])
      expect(pageErrors).toEqual([])
      await ctx.close()
    }, 120_000)
})
