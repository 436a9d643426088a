/**
 * CONTROL-CENTER §8 Issue 2 step 7 and §2.5 A in Chromium: two editors on one branch and one page's
 * Source editor. Each sees the other ("Dana is also editing this page"); edits of different fields
 * commit silently; edits of the same field open the merge dialog with both values, and the choice
 * commits. axe clean on the dialog at 1280 and 375 (screenshots with CC_SCREENSHOTS=<folder>).
 */
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { type CcSession, call, commitWithMessage, screenshot, startCcSession } from './cc-session'

const PAGE = 'definitions/pages/dental-vision.json'
const BRANCH = 'together'

let session: CcSession
let cc: string
let dana: Page
let sam: Page

/** A signed-in editor's tab. */
async function signedIn(email: string): Promise<Page> {
  return (await session.signIn(email)).page
}

async function openSource(page: Page): Promise<void> {
  await page.goto(`${cc}/pages/dental-vision?branch=${BRANCH}&tab=source`)
  await page.waitForSelector('.cc-app')
  await page.locator('.cm-content').waitFor({ timeout: 30_000 })
}

/** The page's text on the branch (committed). */
async function committed(page: Page): Promise<Record<string, unknown>> {
  const f = await call(page, 'GET', `/api/cc/branches/${BRANCH}/file?path=${PAGE}`)
  return JSON.parse(f.body.text)
}

/** Replaces one field in the editor's text as typed input, and waits for the autosave. */
async function setField(page: Page, field: string, value: string): Promise<void> {
  const text = (await page.locator('.cm-content').evaluate((el) => {
    const view = (el as unknown as { cmView?: { view: { state: { doc: { toString(): string } } } } }).cmView
    return view?.view.state.doc.toString() ?? null
  })) as string | null
  const f = await call(page, 'GET', `/api/cc/branches/${BRANCH}/file?path=${PAGE}`)
  const current = text ?? f.body.draft?.text ?? f.body.text
  const doc = JSON.parse(current)
  doc[field] = value
  await page.locator('.cm-content').click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(`${JSON.stringify(doc, null, 2)}\n`)
  await expect
    .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
    .toBe('Draft saved')
}

/** The merge dialog at a width: axe clean, nothing wider than the screen (a screenshot with CC_SCREENSHOTS). */
async function look(page: Page, width: number): Promise<void> {
  const dialog = page.getByTestId('merge-dialog')
  await screenshot(page, `cc-merge-${width}`)
  expect(await seriousViolations(page, { include: '[data-testid="merge-dialog"]' }), `${width}`).toEqual([])
  expect(await dialog.evaluate((d) => d.scrollWidth > d.clientWidth + 1), `sideways at ${width}`).toBe(false)
}

async function commit(page: Page, message: string): Promise<void> {
  await commitWithMessage(page, page.getByRole('button', { name: 'Commit', exact: true }), message)
}

beforeAll(async () => {
  session = await startCcSession({
    prefix: 'fw-cc-merge-',
    staff: [
      ['dana@x.test', 'Dana', 'editor'],
      ['sam@x.test', 'Sam', 'editor'],
    ],
  })
  cc = session.cc
  dana = await signedIn('dana@x.test')
  sam = await signedIn('sam@x.test')
  expect((await call(dana, 'POST', '/api/cc/branches', { title: 'Together', name: BRANCH })).status).toBe(201)
}, 180_000)

afterAll(async () => {
  await session?.close()
})

describe('two editors on one branch, CONTROL-CENTER §8 Issue 2 step 7', { timeout: 180_000 }, () => {
  it('each sees the other editing the page; different fields merge silently', async () => {
    await openSource(dana)
    await openSource(sam)
    // Sam arrived second: his first heartbeat names Dana; Dana's next poll names Sam.
    await expect
      .poll(() => sam.getByTestId('presence').textContent(), { timeout: 15_000 })
      .toMatch(/^Dana is also editing this page \(since \d{1,2}:\d{2} [ap]m\)\./)
    await expect
      .poll(() => dana.getByTestId('presence').textContent(), { timeout: 15_000 })
      .toMatch(/^Sam is also editing this page \(since \d{1,2}:\d{2} [ap]m\)\./)
    expect(await dana.getByRole('status').filter({ hasText: 'also editing' }).count()).toBe(1)
    await screenshot(dana, 'cc-merge-presence-1280')

    await setField(dana, 'headline', 'Dana: dental and vision, side by side')
    await setField(sam, 'subheadline', 'Sam: routine care most plans leave out')
    await commit(dana, 'Headline')
    await dana.getByRole('dialog', { name: 'Commit to the branch' }).waitFor({ state: 'hidden' })
    await commit(sam, 'Subheadline')
    await sam.getByRole('dialog', { name: 'Commit to the branch' }).waitFor({ state: 'hidden' })
    expect(await sam.getByTestId('merge-dialog').count()).toBe(0)
    expect(await committed(sam)).toMatchObject({
      headline: 'Dana: dental and vision, side by side',
      subheadline: 'Sam: routine care most plans leave out',
    })
    // Sam's editor reloads the merged text.
    await expect.poll(() => sam.locator('.cm-content').textContent()).toContain('Dana: dental and vision')
  })

  it('the same field opens the merge dialog with both values; choosing one commits it', async () => {
    // Both start from the branch as it is now.
    await openSource(dana)
    await openSource(sam)
    await setField(dana, 'headline', 'Dana wins the headline')
    await setField(sam, 'headline', 'Sam wants this headline')
    await setField(sam, 'product', 'Dental, vision and hearing')
    await commit(dana, 'Dana headline')
    await dana.getByRole('dialog', { name: 'Commit to the branch' }).waitFor({ state: 'hidden' })
    await commit(sam, 'Sam headline')

    const dialog = sam.getByRole('dialog', { name: 'Merge your changes' })
    await dialog.waitFor()
    const field = dialog.getByTestId('merge-field')
    expect(await field.count()).toBe(1)
    expect(await field.getAttribute('data-pointer')).toBe('/headline')
    expect(await field.getByTestId('merge-theirs').textContent()).toBe('Dana wins the headline')
    expect(await field.getByTestId('merge-mine').textContent()).toBe('Sam wants this headline')
    expect(await field.locator('.cc-merge-base .cc-merge-value').textContent()).toBe(
      'Dana: dental and vision, side by side',
    )
    expect(await dialog.getByLabel('Message').inputValue()).toBe('Sam headline')

    // Nothing chosen: the dialog says so at the field.
    await dialog.getByRole('button', { name: 'Commit the merge' }).click()
    await expect.poll(() => field.locator('.cc-form-error').textContent()).toBe('choose which value to keep')
    await look(sam, 1280)

    // Cancel keeps my draft; at 375 px (the page lays out anew) Commit asks again.
    await dialog.getByRole('button', { name: 'Cancel (keep my draft)' }).click()
    await dialog.waitFor({ state: 'hidden' })
    expect(
      JSON.parse((await call(sam, 'GET', `/api/cc/branches/${BRANCH}/file?path=${PAGE}`)).body.draft.text),
    ).toMatchObject({ headline: 'Sam wants this headline' })
    await sam.setViewportSize({ width: 375, height: 800 })
    await sam.locator('.cm-content').waitFor()
    await commit(sam, 'Sam headline')
    await dialog.waitFor()
    await field.getByRole('radio', { name: /Write another value/ }).check()
    await look(sam, 375)
    await sam.setViewportSize({ width: 1280, height: 900 })
    await sam.locator('.cm-content').waitFor()
    await commit(sam, 'Sam headline')
    await dialog.waitFor()

    // Keyboard: the first choice is a radio reachable by Tab; arrow keys move to "Keep mine".
    await field.getByRole('radio', { name: /Keep theirs/ }).focus()
    await sam.keyboard.press('ArrowDown')
    expect(await field.getByRole('radio', { name: /Keep mine/ }).isChecked()).toBe(true)
    await dialog.getByRole('button', { name: 'Commit the merge' }).click()
    await dialog.waitFor({ state: 'hidden' })
    expect(await committed(sam)).toMatchObject({
      headline: 'Sam wants this headline',
      product: 'Dental, vision and hearing',
    })
    await expect.poll(() => sam.getByTestId('save-state').textContent()).toBe('No unsaved changes')
    const history = await call(sam, 'GET', `/api/cc/branches/${BRANCH}/history?path=${PAGE}`)
    expect(history.body.commits[0].subject).toBe('Sam headline')
    expect(history.body.commits[0].author.name).toBe('Sam')
  })

  it('the editor leaving takes its presence away', async () => {
    await openSource(dana)
    await openSource(sam)
    await expect
      .poll(() => dana.getByTestId('presence').textContent(), { timeout: 15_000 })
      .toContain('Sam is also editing this page')
    await sam.goto(`${cc}/branches`)
    await expect.poll(() => dana.getByTestId('presence').textContent(), { timeout: 15_000 }).toBe('')
  })
})
