import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeAndLook, type CcSession, call, openScreen as open, startCcSession } from './cc-session'

const FACEBOOK = 'definitions/phone-rules/m10-facebook.json'
const SHADOWED = 'definitions/phone-rules/m10-meta-late.json'

let session: CcSession
let cc: string
let context: BrowserContext

beforeAll(async () => {
  session = await startCcSession({ prefix: 'fw-cc-phone-', staff: [['ed@x.test', 'Ed', 'editor']] })
  cc = session.cc
  const signedIn = await session.signIn('ed@x.test', { timezoneId: 'UTC' })
  context = signedIn.context
  const page = signedIn.page
  expect((await call(page, 'POST', '/api/cc/branches', { title: 'Phones', name: 'phones' })).status).toBe(201)
  // A rule with the same source as m10-facebook whose id sorts after it: it loses every tie.
  const late = {
    $schema: '../../schemas/phone-rule.schema.json',
    id: 'm10-meta-late',
    brand: 'm10',
    match: { utmSource: ['facebook'] },
    defaultNumber: '18885550199',
    placementId: 'm10-late',
    afid: '100199',
  }
  const put = await call(page, 'PUT', `/api/cc/branches/phones/drafts?path=${SHADOWED}`, {
    text: `${JSON.stringify(late, null, 2)}\n`,
  })
  expect(put.status).toBe(200)
  await page.close()
}, 180_000)

afterAll(async () => {
  await session?.close()
})

const openScreen = (page: Page, path: string) => open(page, `${cc}${path}`)

describe('phone rules, CONTROL-CENTER §8 Issue 2 step 2', { timeout: 150_000 }, () => {
  it('the simulator names m10-facebook for utm_source facebook; the rule that can never win is flagged', async () => {
    const page = await context.newPage()
    await openScreen(page, `/phone-rules?branch=phones&file=${FACEBOOK}`)
    const sim = page.getByRole('region', { name: 'Which rule wins?' })
    const answer = page.getByTestId('sim-answer')
    await expect.poll(() => sim.getByLabel('Brand', { exact: true }).inputValue()).toBe('m10')
    await sim.getByLabel('utm_source', { exact: true }).fill('facebook')
    await expect.poll(() => answer.getByTestId('sim-rule').textContent()).toBe('m10-facebook')
    expect(await answer.getByTestId('sim-number').textContent()).toBe('1-888-555-0102')
    expect(await answer.textContent()).toContain('utm_source facebook matches')
    expect(await answer.getByTestId('sim-hours').textContent()).toMatch(/The number (shows|is hidden)/)
    // Sunday noon UTC (the context's zone) is 4 AM on Sunday in Los Angeles: closed, and it says when the number next shows (Monday 5 AM there).
    await sim.getByLabel(/^At/).fill('2026-11-29T12:00')
    expect(await answer.getByTestId('sim-hours').textContent()).toMatch(/hidden.*next shows Monday/)
    // Keyboard: the page select is reachable and changes the answer (home-m10 with google).
    await sim.getByLabel('utm_source', { exact: true }).fill('google')
    await sim.getByLabel('Page', { exact: true }).focus()
    await sim.getByLabel('Page', { exact: true }).selectOption('home-m10')
    await expect.poll(() => answer.getByTestId('sim-rule').textContent()).toBe('m10-home-google')

    const late = page.locator('[data-rule="m10-meta-late"]')
    expect(await late.getByTestId('shadow-warning').textContent()).toContain(
      'phone rule "m10-meta-late" can never win: wherever it matches, "m10-facebook" wins first',
    )
    expect(await late.textContent()).toContain('my draft')
    // The list, the simulator and the rule form (m10-facebook selected) at both widths.
    await page.getByLabel('Phone number', { exact: true }).waitFor()
    await axeAndLook(page, 'phone-rules-1280')
    await page.setViewportSize({ width: 375, height: 800 })
    await axeAndLook(page, 'phone-rules-375')
    await page.close()
  })

  it('a bad number shows the pattern error at its field, and nothing typed is lost', async () => {
    const page = await context.newPage()
    await openScreen(page, `/phone-rules?branch=phones&file=${FACEBOOK}`)
    const number = page.getByLabel('Phone number', { exact: true })
    expect(await number.inputValue()).toBe('18885550102')
    expect(await page.locator('.fw-pr-shows').textContent()).toContain('1-888-555-0102')
    await number.fill('1234')
    await expect
      .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
      .toBe('Draft saved')
    const field = page.locator('.fw-pr-field', { has: number })
    await expect.poll(() => field.getByTestId('field-errors').textContent()).toContain('pattern')
    expect(await number.getAttribute('aria-invalid')).toBe('true')
    await openScreen(page, `/phone-rules?branch=phones&file=${FACEBOOK}`)
    expect(await page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('1234')
    expect(await page.locator('[data-rule="m10-facebook"]').textContent()).toMatch(/my draft.*problem/)
    // The Source tab shows the same draft.
    await page.getByRole('tab', { name: 'Source' }).click()
    await expect.poll(() => page.locator('.cm-content').textContent()).toContain('"defaultNumber": "1234"')
    await page.getByRole('tab', { name: 'Form' }).click()
    expect(await page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('1234')
    await page.close()
  })

  it('the coverage matrix names the rule of every page and source, and follows the afid picked', async () => {
    const page = await context.newPage()
    await openScreen(page, '/phone-rules?branch=phones')
    const matrix = page.getByRole('region', { name: 'Coverage: page × traffic source' })
    const table = matrix.getByTestId('coverage-matrix')
    const cell = (pageKey: string, source: string) =>
      table.locator(`tr[data-page="${pageKey}"] td[data-source="${source}"]`)
    expect(await matrix.getByLabel('Brand', { exact: true }).inputValue()).toBe('m10')
    const heads = await table.locator('thead th').allTextContents()
    expect(heads.slice(0, 2)).toEqual(['Page', 'no or other utm_source'])
    expect(heads).toEqual(expect.arrayContaining(['facebook', 'fb', 'ig', 'google']))
    // The home page's google visitors have their own rule; other pages fall through to the default (shaded).
    expect(await cell('home-m10', 'google').textContent()).toBe('m10-home-google')
    expect(await cell('grocery', 'google').textContent()).toBe('m10-default')
    expect(await cell('grocery', 'google').getAttribute('class')).toContain('fw-pr-cell-default')
    expect(await cell('grocery', 'facebook').textContent()).toBe('m10-facebook')
    // The draft rule that loses every tie wins no cell, and the table says so.
    expect(await matrix.getByTestId('matrix-idle').textContent()).toContain('m10-meta-late')
    // A link goes to the rule's form.
    await cell('home-m10', 'google').getByRole('link').click()
    await page.getByLabel('Phone number', { exact: true }).waitFor()
    expect(await page.getByLabel('Phone number', { exact: true }).inputValue()).toBe('18885550103')
    // Another brand, and visitors of an affiliate: the afid rule takes every cell.
    await matrix.getByLabel('Brand', { exact: true }).selectOption('bh')
    expect(await matrix.getByLabel('Visitors with afid').locator('option').allTextContents()).toEqual([
      '(none)',
      '204877',
    ])
    expect(await table.locator('tbody td').first().textContent()).toBe('bh-default')
    await matrix.getByLabel('Visitors with afid').selectOption('204877')
    const cells = await table.locator('tbody td').allTextContents()
    expect(cells.length).toBeGreaterThan(0)
    expect(new Set(cells)).toEqual(new Set(['bh-partner-callnet']))
    await page.setViewportSize({ width: 375, height: 800 })
    await axeAndLook(page, 'phone-rules-matrix-375')
    await page.close()
  })
})
