import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CcSession, call, axeAndLook as look, openScreen as open, startCcSession } from './cc-session'

const PAGE = 'definitions/pages/additional-benefits-grocery.json'

let session: CcSession
let files: string
let cc: string
let context: BrowserContext

beforeAll(async () => {
  files = mkdtempSync(join(tmpdir(), 'fw-cc-images-files-'))
  // A phone photo: 4000×3000, EXIF orientation and GPS coordinates.
  const jpeg = await sharp({
    create: { width: 4000, height: 3000, channels: 3, background: { r: 40, g: 120, b: 200 } },
  })
    .withExif({
      IFD0: { Make: 'TestCam' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '34/1 3/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '118/1 14/1 0/1',
      },
    })
    .jpeg({ quality: 80 })
    .toBuffer()
  writeFileSync(join(files, 'Sunny Porch.jpg'), jpeg)
  writeFileSync(join(files, 'notes.txt'), 'not a picture\n')
  writeFileSync(
    join(files, 'wide.png'),
    await sharp({ create: { width: 600, height: 200, channels: 3, background: '#fc0' } })
      .png()
      .toBuffer(),
  )
  session = await startCcSession({ prefix: 'fw-cc-images-', staff: [['ed@x.test', 'Ed', 'editor']] })
  cc = session.cc
  const signedIn = await session.signIn('ed@x.test', { timezoneId: 'UTC' })
  context = signedIn.context
  const page = signedIn.page
  expect((await call(page, 'POST', '/api/cc/branches', { title: 'Pictures', name: 'pics' })).status).toBe(201)
  await page.close()
}, 180_000)

afterAll(async () => {
  await session?.close()
  if (files) rmSync(files, { recursive: true, force: true })
})

const openScreen = (page: Page, path: string) => open(page, `${cc}${path}`)

/** axe and no sideways scroll at 1280 and 375 px (a screenshot of each with CC_SCREENSHOTS). */
async function axeAndLook(page: Page, name: string): Promise<void> {
  await look(page, `cc-images-${name}`, [1280, 375])
  await page.setViewportSize({ width: 1280, height: 900 })
}

describe('images, CONTROL-CENTER §8 Issue 2 step 5', { timeout: 180_000 }, () => {
  it('uploads through the file picker, refuses a text file, asks for alt text, and refuses to delete a used image', async () => {
    const page = await context.newPage()
    await openScreen(page, '/images?branch=pics')
    expect(await page.locator('.cc-empty').textContent()).toContain('no uploaded images yet')
    await axeAndLook(page, 'empty')

    await page
      .getByTestId('image-input')
      .setInputFiles([join(files, 'Sunny Porch.jpg'), join(files, 'notes.txt')])
    const uploads = page.getByRole('list', { name: 'Uploads' })
    await expect
      .poll(() => uploads.locator('[data-state="failed"]').textContent(), { timeout: 60_000 })
      .toContain('"notes.txt" is not an image')
    await expect
      .poll(() => uploads.locator('[data-state="done"]').textContent(), { timeout: 60_000 })
      .toContain('Uploaded as sunny-porch')
    const card = page.getByTestId('image-card')
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1)
    expect(await card.textContent()).toMatch(/sunny-porch.*missing alt text.*2400×1800.*unused/)
    const src = (await card.locator('img').getAttribute('src'))!
    expect(src).toMatch(/^\/images\/uploads\/sunny-porch\.[0-9a-f]{8}\.webp$/)
    // The thumbnail loads: the WebP is served from the branch to its staff, immutable.
    await expect
      .poll(() => card.locator('img').evaluate((i: HTMLImageElement) => i.naturalWidth), { timeout: 15_000 })
      .toBe(2400)
    const served = await page.evaluate(async (u) => {
      const r = await fetch(u)
      return { type: r.headers.get('content-type'), cache: r.headers.get('cache-control') }
    }, src)
    // Unpublished: for signed-in staff (and preview grants) only, kept by no shared cache (docs/decisions/0921).
    expect(served).toEqual({ type: 'image/webp', cache: 'private, max-age=31536000, immutable' })
    await page.getByRole('button', { name: /Missing alt text/ }).click()
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1)
    await axeAndLook(page, 'grid')

    // The detail: Save without alt text is refused at the field.
    await uploads.getByRole('link', { name: /sunny-porch/ }).click()
    await page.waitForURL(/\/images\/sunny-porch\?branch=pics/)
    const alt = page.getByLabel('Alt text (required)')
    await alt.waitFor()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(() => page.locator('.fw-img-form .cc-form-error').first().textContent(), { timeout: 15_000 })
      .toContain('Alt text is required unless the image is decorative')
    expect(await alt.getAttribute('aria-invalid')).toBe('true')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.tagName), { timeout: 15_000 })
      .toBe('TEXTAREA')
    await axeAndLook(page, 'detail-alt-error')
    await alt.fill('A blue sky over a sunny porch')
    await page.keyboard.press('Tab')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(() => page.locator('.fw-img-form [role="status"]').textContent(), { timeout: 15_000 })
      .toBe('Saved (committed on this branch)')

    // A page uses it: Delete is refused and lists the page.
    const head = (await call(page, 'GET', '/api/cc/branches/pics')).body.branch.head
    const text = (await call(page, 'GET', `/api/cc/branches/pics/file?path=${PAGE}`)).body.text as string
    const doc = JSON.parse(text)
    doc.image = { src, alt: 'A blue sky over a sunny porch', width: 2400, height: 1800 }
    expect(
      (
        await call(page, 'PUT', `/api/cc/branches/pics/drafts?path=${PAGE}`, {
          text: `${JSON.stringify(doc, null, 2)}\n`,
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await call(page, 'POST', '/api/cc/branches/pics/commits', {
          message: 'porch',
          expectedHead: head,
          paths: [PAGE],
        })
      ).status,
    ).toBe(201)
    await openScreen(page, '/images/sunny-porch?branch=pics')
    expect(await page.getByTestId('image-used-by').textContent()).toContain('additional-benefits-grocery')
    await page.getByRole('button', { name: 'Delete image' }).click()
    const refused = page.getByTestId('image-delete-refused')
    await expect
      .poll(() => refused.textContent(), { timeout: 15_000 })
      .toMatch(/Not deleted: image "sunny-porch" is used by page/)
    expect(
      await refused.getByRole('link', { name: 'additional-benefits-grocery' }).getAttribute('href'),
    ).toBe('/pages/additional-benefits-grocery?branch=pics')
    await axeAndLook(page, 'detail')

    // Replace keeps the id, gives a new URL and moves the page to it in the same commit.
    await page.getByTestId('image-replace-input').setInputFiles(join(files, 'wide.png'))
    await expect
      .poll(() => page.locator('.fw-img-side [role="status"]', { hasText: 'Replaced' }).textContent(), {
        timeout: 60_000,
      })
      .toMatch(
        /Replaced with wide\.png: 600×200, new URL \/images\/uploads\/sunny-porch\.[0-9a-f]{8}\.webp; 1 file updated/,
      )
    const moved = (await call(page, 'GET', `/api/cc/branches/pics/file?path=${PAGE}`)).body.text as string
    expect(JSON.parse(moved).image).toMatchObject({ width: 600, height: 200 })
    expect(JSON.parse(moved).image.src).not.toBe(src)
    await page.close()
  })

  it('takes several files dropped on the upload zone', async () => {
    const page = await context.newPage()
    await openScreen(page, '/images?branch=pics')
    const drop = page.getByTestId('image-drop')
    const transfer = await page.evaluateHandle(async () => {
      const dt = new DataTransfer()
      for (const [name, colour] of [
        ['red dot.png', '#c00'],
        ['green dot.png', '#0a0'],
      ]) {
        const canvas = document.createElement('canvas')
        canvas.width = 40
        canvas.height = 30
        const g = canvas.getContext('2d')!
        g.fillStyle = colour
        g.fillRect(0, 0, 40, 30)
        const blob = await new Promise<Blob>((r) => canvas.toBlob((b) => r(b!), 'image/png'))
        dt.items.add(new File([blob], name, { type: 'image/png' }))
      }
      return dt
    })
    await drop.dispatchEvent('dragover', { dataTransfer: transfer })
    await drop.dispatchEvent('drop', { dataTransfer: transfer })
    const done = page.getByRole('list', { name: 'Uploads' }).locator('[data-state="done"]')
    await expect.poll(() => done.count(), { timeout: 60_000 }).toBe(2)
    await expect.poll(() => page.getByTestId('image-card').count(), { timeout: 15_000 }).toBe(3)
    expect(await page.getByTestId('image-grid').textContent()).toMatch(/green-dot.*red-dot.*sunny-porch/)
    await page.close()
  })
})
