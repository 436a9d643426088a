import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Frame, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { type CcSession, call as callFrom, commitWithMessage, startCcSession } from './cc-session'
import { httpGet } from './http'

const BRANCH = 'page-edit'
const SHOTS = process.env.CC_SCREENSHOTS

let session: CcSession
let cc: string
let page: Page

beforeAll(async () => {
  session = await startCcSession({ prefix: 'fw-cc-page-', staff: [['pub@x.test', 'Pia', 'publisher']] })
  cc = session.cc
  ;({ page } = await session.signIn('pub@x.test', { timezoneId: 'UTC' }))
  expect((await call('POST', '/api/cc/branches', { title: 'Page edit', name: BRANCH })).status).toBe(201)
}, 180_000)

afterAll(async () => {
  await session?.close()
})

/** A JSON call from the tab the tests drive, as its user. */
const call = (method: string, path: string, body?: unknown) => callFrom(page, method, path, body)

const previewFrame = async (): Promise<Frame> => {
  const handle = await page.getByTestId('preview-frame').elementHandle()
  const frame = await handle?.contentFrame()
  if (!frame) throw new Error('no preview frame')
  return frame
}
const previewHeadline = async () => {
  try {
    return await (await previewFrame()).locator('[data-testid="headline"]').textContent({ timeout: 500 })
  } catch {
    return null
  }
}
const activeId = () => page.evaluate(() => document.activeElement?.id ?? '')

describe('the page editor', () => {
  it('shows a typed headline in the preview within 1.5 s, without committing', async () => {
    await page.goto(`${cc}/pages/grocery-allowance-r2?branch=${BRANCH}`)
    await page.getByTestId('page-form-content').waitFor()
    await expect.poll(previewHeadline, { timeout: 30_000 }).toBe('Check your grocery allowance options')
    const input = page.getByLabel('Headline', { exact: true })
    await input.fill('')
    await input.pressSequentially('Your grocery card, checked', { delay: 20 })
    const typed = Date.now()
    await expect.poll(previewHeadline, { timeout: 10_000, interval: 50 }).toBe('Your grocery card, checked')
    expect(Date.now() - typed).toBeLessThan(1500)
    // Then the autosave, and the preview reloads with the server's render of my draft.
    await expect
      .poll(() => page.getByTestId('save-state').first().textContent(), { timeout: 10_000 })
      .toBe('Draft saved')
    const frame = await previewFrame()
    await expect
      .poll(
        () => frame.evaluate(() => performance.getEntriesByType('navigation').length && document.readyState),
        {
          timeout: 10_000,
        },
      )
      .toBe('complete')
    await expect.poll(previewHeadline, { timeout: 10_000 }).toBe('Your grocery card, checked')
    // Nothing was committed: the branch's file still has the old headline; my draft has the new one.
    const file = await call(
      'GET',
      `/api/cc/branches/${BRANCH}/file?path=definitions/pages/grocery-allowance-r2.json`,
    )
    expect(JSON.parse(file.body.text).headline).toBe('Check your grocery allowance options')
    expect(JSON.parse(file.body.draft.text).headline).toBe('Your grocery card, checked')
  })

  it('focuses the field of a text clicked in the preview in Select mode', async () => {
    await page.getByTestId('preview-select').click()
    expect(await page.getByTestId('preview-select').getAttribute('aria-pressed')).toBe('true')
    const frame = await previewFrame()
    // The preview reports the clicked field's JSON pointer (docs/decisions/0987), not only its text.
    await page.evaluate(() => {
      const w = window as unknown as { picks: unknown[] }
      w.picks = []
      window.addEventListener('message', (e) => {
        if ((e.data as { type?: string })?.type === 'fw:selected') w.picks.push(e.data)
      })
    })
    await frame.locator('[data-testid="headline"]').click()
    await expect.poll(activeId).toBe('pf-headline')
    expect(
      await page.evaluate(() => (window as unknown as { picks: { pointer: string }[] }).picks[0]?.pointer),
    ).toBe('/headline')
    // The eyebrow shows the product in capitals (CSS); its field holds it as typed.
    await frame.locator('.eyebrow').first().click()
    await expect.poll(activeId).toBe('pf-product')
    // From another tab, a click switches back to the tab of the field.
    await page.getByRole('tab', { name: 'SEO' }).click()
    await page.getByTestId('page-form-seo').waitFor()
    await frame.locator('[data-testid="headline"]').click()
    await expect.poll(activeId).toBe('pf-headline')
    expect(await page.getByRole('tab', { name: 'Content' }).getAttribute('aria-selected')).toBe('true')
    // Select mode off: clicks in the preview behave as a visitor's again.
    await page.getByTestId('preview-select').click()
    expect(await page.getByTestId('preview-select').getAttribute('aria-pressed')).toBe('false')
  })

  it("previews a chosen step of the page's funnel", async () => {
    await page.getByLabel('Step', { exact: true }).selectOption('medicaid')
    await expect
      .poll(() => page.getByTestId('preview-frame').getAttribute('src'), { timeout: 10_000 })
      .toMatch(/\/grocery-allowance-r2\/medicaid\?/)
    await page.getByLabel('Step', { exact: true }).selectOption('')
    await expect
      .poll(() => page.getByTestId('preview-frame').getAttribute('src'), { timeout: 10_000 })
      .toMatch(/\/grocery-allowance-r2\?/)
  })

  it('shows a bad path at its field after the autosave, and keeps what was typed', async () => {
    await page.getByRole('tab', { name: 'Route & brands' }).click()
    const path = page.getByLabel('Path', { exact: true })
    await path.fill('grocery allowance')
    await expect
      .poll(() => page.locator('#pf-path-err').textContent(), { timeout: 10_000 })
      .toMatch(/pattern|must match/)
    expect(await path.inputValue()).toBe('grocery allowance')
    expect(await path.getAttribute('aria-invalid')).toBe('true')
    await path.fill('/grocery-allowance-r2/{step?}')
    await expect.poll(() => page.locator('#pf-path-err').textContent(), { timeout: 10_000 }).toBe('')
    expect(await seriousViolations(page)).toEqual([])
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true })
      await page.screenshot({ path: join(SHOTS, 'page-route-1280.png') })
    }
    await page.getByRole('tab', { name: 'SEO' }).click()
    await page.getByTestId('page-form-seo').waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole('tab', { name: 'Content' }).click()
    await page.getByTestId('page-form-content').waitFor()
    expect(await seriousViolations(page)).toEqual([])
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'page-content-1280.png') })
  })

  it("shows a removed destination's message under the Destination field within 2 s, and a Problems count of 1", async () => {
    await page.getByTestId('page-form-content').waitFor()
    const problems = page.getByTestId('problems-panel').locator('.cc-count')
    await expect.poll(() => problems.textContent(), { timeout: 10_000 }).toBe('0')
    const destination = page.getByLabel('Destination', { exact: true })
    expect(await destination.inputValue()).toBe('/thank-you')
    const errors = page.locator('#pf-destination-err')
    await destination.fill('')
    const cleared = Date.now()
    await expect
      .poll(() => errors.textContent(), { timeout: 10_000, interval: 50 })
      .toContain('a funnel page needs a "destination" to finish to')
    expect(Date.now() - cleared).toBeLessThan(2000)
    expect(await destination.getAttribute('aria-invalid')).toBe('true')
    await expect.poll(() => problems.textContent(), { timeout: 10_000 }).toBe('1')
    await page.getByTestId('problems-panel').click()
    const panel = page.getByRole('dialog', { name: 'Problems on this branch' })
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('/destination')
    // The panel's link opens the tab whose form shows the field, and focuses it.
    await panel.getByRole('link', { name: /\/destination/ }).click()
    await page.waitForURL(/tab=content/)
    await page.getByTestId('page-form-content').waitFor()
    await expect.poll(activeId, { timeout: 10_000 }).toBe('pf-destination')
    expect(await page.locator('#pf-destination-err').textContent()).toContain('needs a "destination"')
    await destination.fill('/thank-you')
    await expect.poll(() => errors.textContent(), { timeout: 10_000 }).toBe('')
    await expect.poll(() => problems.textContent(), { timeout: 10_000 }).toBe('0')
  })

  it("fills the page's image from an uploaded one: address, alt text, width and height", async () => {
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer()
    const up = await page.evaluate(
      async ({ bytes, branch }) => {
        const r = await fetch(`/api/cc/branches/${branch}/images`, {
          method: 'POST',
          headers: { 'Content-Type': 'image/png', 'X-Filename': 'green-card.png' },
          body: new Uint8Array(bytes),
        })
        return { status: r.status, body: await r.json() }
      },
      { bytes: [...png], branch: BRANCH },
    )
    expect(up.status).toBe(201)
    const id = up.body.image.id as string
    expect(
      (
        await call('PUT', `/api/cc/branches/${BRANCH}/images/${id}`, {
          alt: 'A green benefits card',
          decorative: false,
        })
      ).status,
    ).toBe(200)
    await page.goto(`${cc}/pages/grocery-allowance-r2?branch=${BRANCH}&tab=content`)
    await page.getByTestId('page-form-content').waitFor()
    const picker = page.getByLabel('Choose an uploaded image')
    await expect.poll(() => picker.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1)
    await picker.selectOption(id)
    expect(await page.locator('#pf-image-alt').inputValue()).toBe('A green benefits card')
    expect(await page.locator('#pf-image-width').inputValue()).toBe('800')
    expect(await page.locator('#pf-image-height').inputValue()).toBe('600')
    await expect
      .poll(
        async () => {
          const f = await call(
            'GET',
            `/api/cc/branches/${BRANCH}/file?path=definitions/pages/grocery-allowance-r2.json`,
          )
          return f.body.draft ? JSON.parse(f.body.draft.text).image : null
        },
        { timeout: 10_000 },
      )
      .toEqual({ src: up.body.image.src, alt: 'A green benefits card', width: 800, height: 600 })
  })

  it('refuses to delete a page an experiment runs on, and says why', async () => {
    await page.goto(`${cc}/pages/grocery?branch=${BRANCH}`)
    await page.getByTestId('page-form-content').waitFor()
    await page.getByRole('button', { name: 'Delete' }).click()
    const refused = page.getByTestId('delete-refused')
    await expect
      .poll(() => refused.textContent(), { timeout: 10_000 })
      .toContain('experiment grocery-headline runs on this page')
    expect(await seriousViolations(page)).toEqual([])
    await refused.getByRole('button', { name: 'Close' }).click()
    // The experiment's variants can be previewed from the same pane.
    const variant = page.getByLabel('Variant', { exact: true })
    const options = await variant
      .locator('option')
      .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))
    expect(options.length).toBeGreaterThan(2)
    await variant.selectOption(options[2])
    await expect
      .poll(() => page.getByTestId('preview-frame').getAttribute('src'), { timeout: 10_000 })
      .toContain(`fw_variant=${options[2]}`)
  })

  it('duplicates a page under the next revision key and path', async () => {
    await page.goto(`${cc}/pages/grocery-allowance-r2?branch=${BRANCH}`)
    await page.getByTestId('page-form-content').waitFor()
    await page.getByRole('button', { name: 'Duplicate' }).click()
    const dialog = page.getByRole('dialog', { name: 'Duplicate page grocery-allowance-r2' })
    expect(await dialog.getByLabel('New page key').inputValue()).toBe('grocery-allowance-r3')
    expect(await dialog.getByLabel('Path').inputValue()).toBe('/grocery-allowance-r3/{step?}')
    await dialog.getByRole('button', { name: 'Duplicate' }).click()
    await page.waitForURL(/\/pages\/grocery-allowance-r3/)
    await page.getByTestId('page-form-content').waitFor()
    // The copy carries my unsaved headline from the original's draft.
    expect(await page.getByLabel('Headline', { exact: true }).inputValue()).toBe('Your grocery card, checked')
  })

  it('creates a landing page from a template through the UI alone, publishes it, and it is served on its brand', async () => {
    await page.goto(`${cc}/pages?branch=${BRANCH}`)
    await page.getByRole('button', { name: 'New page' }).click()
    const wizard = page.getByRole('dialog', { name: 'New page' })
    // Nothing filled in: each missing answer says what it needs, at its field.
    await wizard.getByRole('button', { name: 'Create page' }).click()
    await expect
      .poll(() => wizard.locator('.cc-form-error').allTextContents())
      .toEqual(
        expect.arrayContaining([
          'Give the page a key, like grocery-r3.',
          'Choose at least one brand to serve the page on.',
        ]),
      )
    expect(await seriousViolations(page)).toEqual([])
    await wizard.getByLabel('Template').selectOption('landing')
    await wizard.getByLabel('Page key').fill('spring-otc')
    await wizard.getByRole('checkbox', { name: /\(m10\)/ }).check()
    await wizard.getByLabel('Headline').fill('Spring OTC savings are here')
    await wizard.getByRole('button', { name: 'Create page' }).click()
    await page.waitForURL(/\/pages\/spring-otc/)
    await page.getByTestId('page-form-content').waitFor()
    await page.getByLabel('Subheadline').fill('See which plans near you add an over-the-counter allowance.')
    await page.getByLabel('Button label').fill('Check my plans')
    await page.getByLabel('Goes to').fill('/grocery-allowance-r2')
    await expect
      .poll(() => page.getByTestId('save-state').first().textContent(), { timeout: 10_000 })
      .toBe('Draft saved')
    await expect.poll(() => page.locator('.cc-form-error').count()).toBe(0)
    // Commit this page's draft (and the others of the earlier tests) from the branch screen.
    for (const path of ['definitions/pages/spring-otc.json']) {
      const commit = await commitWithMessage(
        page,
        page.getByRole('button', { name: 'Commit', exact: true }).first(),
        `New landing page ${path}`,
      )
      await commit.waitFor({ state: 'hidden', timeout: 15_000 })
    }
    await page.goto(`${cc}/branches/${BRANCH}`)
    await page.getByRole('button', { name: 'Publish now' }).click()
    const confirm = page.getByRole('dialog', { name: `Publish ${BRANCH}?` })
    await confirm.getByRole('button', { name: 'Publish' }).click()
    await expect
      .poll(async () => (await httpGet(session.server.port, '/spring-otc', 'm10.localhost')).status, {
        timeout: 20_000,
      })
      .toBe(200)
    const served = await httpGet(session.server.port, '/spring-otc', 'm10.localhost')
    expect(served.body).toContain('Spring OTC savings are here')
    expect(served.body).toContain('Check my plans')
    // Only on its brand.
    expect((await httpGet(session.server.port, '/spring-otc', 'ac.localhost')).status).toBe(404)
  })

  it('works at 375 px: tabs wrap, nothing scrolls sideways, axe clean', async () => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto(`${cc}/pages/grocery-allowance-r2?branch=${BRANCH}`)
    await page.getByTestId('page-form-content').waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    if (SHOTS) {
      await page.setViewportSize({ width: 375, height: 2000 })
      await page.screenshot({ path: join(SHOTS, 'page-content-375.png') })
    }
    await page.setViewportSize({ width: 1280, height: 900 })
  })
})
