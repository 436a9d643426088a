import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CcSession,
  call as callFrom,
  commitWithMessage,
  axeAndLook as look,
  openScreen as open,
  screenshot,
  startCcSession,
} from './cc-session'

const BRANCH = 'words'
const ID = 'aetna-what-to-check'
const FILE = `definitions/articles/${ID}.json`
/**
 * Markdown with bytes a rich-text editor would rewrite: trailing spaces (a hard break), `*` and `_`
 * that are and are not emphasis, a table, raw HTML with a script, and a blank line at the end.
 */
const TYPED = [
  '## Tricky heading',
  '',
  'Two trailing spaces  ',
  'then **bold**, *em*, _under_ and 2 * 3 * 4 with snake_case_name.',
  '',
  '| Plan | Cost |',
  '|:--- | ---:|',
  '| *HMO* | $0 |',
  '',
  '<script>alert(1)</script>',
  '',
  '',
].join('\n')

let session: CcSession
let cc: string
let context: BrowserContext
let page: Page

beforeAll(async () => {
  session = await startCcSession({ prefix: 'fw-cc-articles-', staff: [['ann@x.test', 'Ann', 'editor']] })
  cc = session.cc
  ;({ context, page } = await session.signIn('ann@x.test', { timezoneId: 'UTC' }))
  expect((await call('POST', '/api/cc/branches', { title: 'Words', name: BRANCH })).status).toBe(201)
}, 180_000)

afterAll(async () => {
  await session?.close()
})

/** A JSON call as Ann, from the tab the tests drive. */
const call = (method: string, path: string, body?: unknown) => callFrom(page, method, path, body)
const openScreen = (path: string) => open(page, `${cc}${path}`)
const axeAndLook = (name: string) => look(page, `cc-articles-${name}`)

const previewBody = () => page.frameLocator('[data-testid="article-preview-frame"]').locator('.article-body')

describe('articles, CONTROL-CENTER §8 Issue 2 step 6', { timeout: 180_000 }, () => {
  it('lists the branch articles with their URL, author, date, carrier and state', async () => {
    await openScreen(`/articles?branch=${BRANCH}`)
    const table = page.getByTestId('article-table')
    const row = table.locator('tr', { hasText: 'Aetna Medicare Advantage: Five Things' })
    expect(await row.textContent()).toContain('/reviews/aetna/medicare-advantage-what-to-check')
    expect(await row.textContent()).toContain('MyPlanAdvocate Licensed Agent Team')
    expect(await row.textContent()).toContain('2026-10-01')
    expect(await row.textContent()).toContain('Aetna')
    expect(await table.locator('tbody tr').count()).toBe(4)
    await axeAndLook('list-1280')
    // Live is read-only: the list, without New article.
    await openScreen('/articles?branch=live')
    expect(await page.getByRole('button', { name: 'New article' }).count()).toBe(0)
    await axeAndLook('live-1280')
  })

  it('stores typed Markdown byte for byte, previews it with the page template, and commits', async () => {
    const live = readFileSync(join(import.meta.dirname, '../..', FILE), 'utf8')
    await openScreen(`/articles?branch=${BRANCH}&article=${ID}`)
    const editor = page.getByRole('textbox', { name: 'Body (Markdown)' })
    await editor.waitFor()
    // The preview of the unchanged article is the published page's body.
    await expect.poll(() => previewBody().locator('h2').first().textContent()).toBe('1. Your doctors')
    // Loading without edits saves nothing.
    expect(await page.getByTestId('save-state').textContent()).toBe('No unsaved changes')
    expect((await call('GET', `/api/cc/branches/${BRANCH}/file?path=${FILE}`)).body.draft).toBeNull()

    await editor.click()
    await page.keyboard.press('ControlOrMeta+a')
    // An HTML tag typed with a pause before its ">" (the editor has parsed it by then) is closed by
    // nobody: CodeMirror's HTML support would add "</div>" (decision 0940).
    await page.keyboard.type('<div')
    await page.waitForTimeout(500)
    await page.keyboard.type('>')
    await expect.poll(() => editor.textContent()).toBe('<div>')
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type(TYPED)
    const typedAt = Date.now()
    await expect
      .poll(() => previewBody().locator('h2').first().textContent(), { timeout: 5_000, interval: 50 })
      .toBe('Tricky heading')
    expect(Date.now() - typedAt).toBeLessThan(1_500)
    await expect
      .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
      .toBe('Draft saved')
    const saved = (await call('GET', `/api/cc/branches/${BRANCH}/file?path=${FILE}`)).body
    const draft = JSON.parse(saved.draft.text)
    expect(Array.isArray(draft.body)).toBe(true)
    expect(draft.body.join('\n')).toBe(TYPED)
    // Nothing else in the file moved: the draft is the file with only the body's lines replaced.
    expect(saved.draft.text).toBe(
      `${JSON.stringify({ ...JSON.parse(live), body: TYPED.split('\n') }, null, 2)}\n`,
    )
    // The preview renders the table and shows the script as text.
    const html = await previewBody().evaluate((el) => el.innerHTML)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('<td align="left"><em>HMO</em></td>')
    expect(html).toContain('snake_case_name')

    await axeAndLook('editor-1280')
    await screenshot(page.getByRole('region', { name: 'Preview' }), 'cc-articles-preview-1280')

    const commit = await commitWithMessage(
      page,
      page.getByRole('button', { name: 'Commit' }),
      'Aetna checklist: a table of costs',
    )
    await commit.waitFor({ state: 'hidden', timeout: 15_000 })
    const committed = (await call('GET', `/api/cc/branches/${BRANCH}/file?path=${FILE}`)).body
    expect(committed.draft).toBeNull()
    expect(JSON.parse(committed.text).body.join('\n')).toBe(TYPED)

    // The branch preview of the real page carries exactly the preview's article body.
    const link = page.getByTestId('article-preview').getByRole('link', { name: /Preview on mpa/ })
    const href = (await link.getAttribute('href')) as string
    const real = await context.newPage()
    await real.goto(href)
    const realHtml = await real.locator('.article-body').evaluate((el) => el.innerHTML)
    await real.close()
    await expect.poll(() => previewBody().evaluate((el) => el.innerHTML)).toBe(realHtml)
    expect(realHtml).toContain('&lt;script&gt;')

    await page.setViewportSize({ width: 375, height: 800 })
    await editor.waitFor()
    await axeAndLook('editor-375')
    await screenshot(page.getByRole('region', { name: 'Preview' }), 'cc-articles-preview-375')
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('checks the fields inline: counters, the updated ≥ date rule and the slug URL', async () => {
    await openScreen(`/articles?branch=${BRANCH}&article=${ID}`)
    const title = page.getByLabel('Title', { exact: true })
    await title.fill('x'.repeat(121))
    const titleField = page.locator('.fw-art-title')
    expect(await titleField.getByTestId('counter').textContent()).toContain('121/120 characters: 1 too many')
    await page.getByLabel('Updated', { exact: true }).fill('2026-09-01')
    expect(await page.locator('.fw-art-updated').getByTestId('field-errors').textContent()).toContain(
      'must not be before the date (2026-10-01)',
    )
    await page.getByLabel('Slug', { exact: true }).fill('aetna/extras')
    expect(await page.getByTestId('article-urls').textContent()).toContain('/reviews/aetna/extras')
    await expect
      .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
      .toBe('Draft saved')
    await expect
      .poll(() => titleField.getByTestId('field-errors').textContent(), { timeout: 10_000 })
      .toMatch(/120/)
  })

  it('creates a new article as a draft, the id checked as typed', async () => {
    await openScreen(`/articles?branch=${BRANCH}`)
    await page.getByRole('button', { name: 'New article' }).click()
    const id = page.getByLabel('Id of the new article')
    await id.fill('Bad Id')
    expect(await page.getByRole('form', { name: 'New article' }).textContent()).toContain('is not an id')
    await id.fill(ID)
    expect(await page.getByRole('form', { name: 'New article' }).textContent()).toContain('already used')
    await id.fill('aetna-dental-extras')
    await page.getByRole('button', { name: 'Create draft' }).click()
    await page.waitForURL(/article=aetna-dental-extras/)
    await page.getByRole('textbox', { name: 'Body (Markdown)' }).waitFor()
    const file = (
      await call('GET', `/api/cc/branches/${BRANCH}/file?path=definitions/articles/aetna-dental-extras.json`)
    ).body
    const doc = JSON.parse(file.draft.text)
    expect(doc.id).toBe('aetna-dental-extras')
    expect(Array.isArray(doc.body)).toBe(true)
    expect(file.errors).toEqual([])
    await axeAndLook('new-1280')
    await page.setViewportSize({ width: 375, height: 800 })
    await openScreen(`/articles?branch=${BRANCH}`)
    const row = page.getByTestId('article-table').locator('tr', { hasText: 'aetna-dental-extras' })
    expect(await row.textContent()).toMatch(/newmy draft/)
    await axeAndLook('list-375')
  })
})
