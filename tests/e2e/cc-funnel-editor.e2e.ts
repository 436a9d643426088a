import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { type CcSession, call as callFrom, commitWithMessage, startCcSession } from './cc-session'
import { PROJECT_ROOT } from './server-process'

const BRANCH = 'funnel-edit'
const FUNNEL = 'definitions/funnels/grocery-allowance-r2.json'
const STEP_ZIP = 'definitions/steps/zip.json'

let session: CcSession
let cc: string
let page: Page

/** Who uses step `zip`, counted from the definitions on disk (not from the screen under test). */
function zipUsage(): { funnels: number; brands: number; pages: string[] } {
  const dir = (d: string) => join(PROJECT_ROOT, 'definitions', d)
  const json = (d: string, f: string) => JSON.parse(readFileSync(join(dir(d), f), 'utf8'))
  const funnels = readdirSync(dir('funnels'))
    .map((f) => json('funnels', f))
    .filter((f) => f.steps.some((s: { step: string }) => s.step === 'zip'))
    .map((f) => f.id as string)
  const pages = readdirSync(dir('pages'))
    .map((f) => ({ key: f.replace(/\.json$/, ''), ...json('pages', f) }))
    .filter((p) => funnels.includes(p.form))
  return {
    funnels: funnels.length,
    brands: new Set(pages.flatMap((p) => p.brands ?? [])).size,
    pages: pages.map((p) => p.key as string),
  }
}

beforeAll(async () => {
  session = await startCcSession({ prefix: 'fw-cc-funnel-', staff: [['ed@x.test', 'Ed', 'editor']] })
  cc = session.cc
  ;({ page } = await session.signIn('ed@x.test', { timezoneId: 'UTC' }))
  expect((await call('POST', '/api/cc/branches', { title: 'Funnel edit', name: BRANCH })).status).toBe(201)
}, 180_000)

afterAll(async () => {
  await session?.close()
})

/** A JSON call from the tab the tests drive, as its user. */
const call = (method: string, path: string, body?: unknown) => callFrom(page, method, path, body)

/** My draft of a file on the branch, as the server has it. */
async function draftOf(path: string): Promise<Record<string, unknown> | null> {
  const r = await call('GET', `/api/cc/branches/${BRANCH}/file?path=${encodeURIComponent(path)}`)
  expect(r.status).toBe(200)
  return r.body.draft?.text ? JSON.parse(r.body.draft.text) : null
}

const stepCard = (name: string) => page.locator(`li.fw-step[data-step="${name}"]`)
const stepOrder = () =>
  page.locator('li.fw-step').evaluateAll((els) => els.map((e) => e.getAttribute('data-step')))

describe('the funnel editor (page editor, Funnel tab)', () => {
  it('lists the steps with who shares each, moves one with the keyboard, and autosaves the order', async () => {
    await page.goto(`${cc}/pages/grocery-allowance-r2?branch=${BRANCH}&tab=funnel`)
    await page.getByTestId('funnel-editor').waitFor()
    expect(await stepOrder()).toEqual(['zip', 'medicare', 'medicaid', 'name', 'contact'])
    const u = zipUsage()
    expect(u.funnels).toBeGreaterThan(1)
    await expect
      .poll(() => stepCard('zip').locator('.fw-step-meta').textContent())
      .toContain(`Shared by ${u.funnels} funnels on ${u.brands} brands`)

    // Keyboard only: focus medicaid's Move up and press Enter; focus follows the step.
    await stepCard('medicaid').getByRole('button', { name: 'Move up' }).focus()
    await page.keyboard.press('Enter')
    expect(await stepOrder()).toEqual(['zip', 'medicaid', 'medicare', 'name', 'contact'])
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('li.fw-step')?.getAttribute('data-step')),
      )
      .toBe('medicaid')
    await page.keyboard.press('Enter')
    expect(await stepOrder()).toEqual(['medicaid', 'zip', 'medicare', 'name', 'contact'])
    // Move it back down twice with the keyboard.
    await stepCard('medicaid').getByRole('button', { name: 'Move down' }).focus()
    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    expect(await stepOrder()).toEqual(['zip', 'medicare', 'medicaid', 'name', 'contact'])
    await stepCard('medicaid').getByRole('button', { name: 'Move up' }).click()
    await expect
      .poll(() => page.getByTestId('save-state').first().textContent(), { timeout: 10_000 })
      .toBe('Draft saved')
    const saved = await draftOf(FUNNEL)
    expect((saved?.steps as { step: string }[] | undefined)?.map((s) => s.step)).toEqual([
      'zip',
      'medicaid',
      'medicare',
      'name',
      'contact',
    ])
  })

  it('overrides a title and resets it to the shared value', async () => {
    const card = stepCard('medicare')
    await card.locator('summary').click()
    await card.getByRole('button', { name: 'Override question (title) of step medicare' }).click()
    const input = card.getByLabel('Question (title), overridden in this funnel')
    await input.fill('Do you have Medicare Parts A and B?')
    await expect
      .poll(async () => (await draftOf(FUNNEL))?.steps, { timeout: 10_000 })
      .toContainEqual({
        step: 'medicare',
        overrides: { title: 'Do you have Medicare Parts A and B?' },
      })
    await expect.poll(() => card.locator('h3').textContent()).toContain('Do you have Medicare Parts A and B?')
    await card.locator('[data-override="title"]').getByRole('button', { name: 'Reset to shared' }).click()
    await expect
      .poll(async () => (await draftOf(FUNNEL))?.steps, { timeout: 10_000 })
      .toContainEqual({ step: 'medicare' })
  })

  it('builds "If haveMedicaid is no, go to step contact" and draws it as an added edge', async () => {
    const card = stepCard('medicaid')
    await card.locator('summary').click()
    await card.getByRole('button', { name: 'Override after the answers (onsubmit) of step medicaid' }).click()
    const actions = card.locator('[data-override="onSubmit"]')
    await actions.getByRole('button', { name: 'Add action' }).click()
    const row = actions.locator('li.fw-action').last()
    await row.getByLabel('When', { exact: true }).selectOption('answer-equals')
    await row.getByLabel('Answer', { exact: true }).selectOption('haveMedicaid')
    await row.getByLabel('is', { exact: true }).selectOption('no')
    await row.getByLabel('Then', { exact: true }).selectOption('go-to-step')
    await row.getByLabel('Step', { exact: true }).selectOption('contact')
    await expect
      .poll(() => row.locator('.fw-action-sentence').textContent())
      .toBe('1. If haveMedicaid is no, go to step contact.')
    await expect
      .poll(async () => (await draftOf(FUNNEL))?.steps, { timeout: 10_000 })
      .toContainEqual({
        step: 'medicaid',
        overrides: {
          onSubmit: [
            {
              type: 'go-to-step',
              step: 'contact',
              when: { type: 'answer-equals', field: 'haveMedicaid', value: false },
            },
          ],
        },
      })
    // Moving steps changes no answer's meaning: no form-version prompt.
    expect(await page.locator('.fw-bump').count()).toBe(0)
    await page.getByText('Flow graph').click()
    await page.getByTestId('flow-graph').waitFor()
    await expect
      .poll(() => page.locator('.fw-legend-added').allTextContents())
      .toContain('a Added: From medicaid to step contact if haveMedicaid is no')
    // The steps moved since the commit: the old next-step edges are drawn as removed.
    await page.locator('.fw-legend-removed').first().waitFor()
    expect(await seriousViolations(page)).toEqual([])
    if (process.env.CC_SCREENSHOTS) {
      mkdirSync(process.env.CC_SCREENSHOTS, { recursive: true })
      await page.screenshot({
        path: join(process.env.CC_SCREENSHOTS, 'funnel-flow-1280.png'),
        fullPage: true,
      })
    }
    await page.getByText('Steps', { exact: true }).click()
  })

  it('opens a shared step with who it reaches before any change, and saves it as a draft of the step', async () => {
    await stepCard('zip').getByRole('button', { name: 'Edit shared step' }).click()
    const dialog = page.getByRole('dialog', { name: 'Shared step zip' })
    const usage = dialog.getByTestId('step-usage')
    const u = zipUsage()
    await expect
      .poll(() => usage.textContent())
      .toContain(`Shared by ${u.funnels} funnels on ${u.brands} brands`)
    for (const key of u.pages.slice(0, 5)) await usage.getByRole('link', { name: key, exact: true }).waitFor()
    const title = dialog.getByLabel('Question (title)')
    await title.fill('Which ZIP code do you live in?')
    await expect
      .poll(async () => (await draftOf(STEP_ZIP))?.title, { timeout: 10_000 })
      .toBe('Which ZIP code do you live in?')
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Close' }).last().click()
    await dialog.waitFor({ state: 'hidden' })
  })

  it('commits the funnel, and works at 375 px without sideways scrolling', async () => {
    const commit = await commitWithMessage(
      page,
      page.getByTestId('funnel-editor').getByRole('button', { name: 'Commit' }),
      'Medicaid first, then the contact step for people without it',
    )
    await commit.waitFor({ state: 'hidden', timeout: 15_000 })
    const file = await call('GET', `/api/cc/branches/${BRANCH}/file?path=${encodeURIComponent(FUNNEL)}`)
    expect(file.body.draft).toBeNull()
    expect(JSON.parse(file.body.text).steps.map((s: { step: string }) => s.step)).toEqual([
      'zip',
      'medicaid',
      'medicare',
      'name',
      'contact',
    ])
    await page.setViewportSize({ width: 375, height: 800 })
    await stepCard('medicaid').locator('summary').click()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    if (process.env.CC_SCREENSHOTS) {
      await page.screenshot({
        path: join(process.env.CC_SCREENSHOTS, 'funnel-steps-375.png'),
        fullPage: true,
      })
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.screenshot({
        path: join(process.env.CC_SCREENSHOTS, 'funnel-steps-1280.png'),
        fullPage: true,
      })
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  })
})
