import { createHash, randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { setStaffDisabled } from '../../store/auth-store'
import { PREVIEW_GRANT_USER_RECHECK_MS } from '../services/preview-grants'
import { type CcHarness, startCcHarness, testPng } from './cc-test-harness'

const PAGE = 'definitions/pages/additional-benefits-grocery.json'
const PAGE_URL = '/additional-benefits-grocery'
const BRAND_HOST = 'm10.localhost'
const UPLOADS = 'ui/public/images/uploads'
/** Issue 27, acceptance 6: a disabled user's preview links stop within this. */
const PREVIEW_ENDS_WITHIN_MS = 5_000
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/**
 * Issue 27: uploads only through the image pipeline (drafts, commits and publishes of other bytes
 * under images/uploads/ refused), unpublished images only with a preview grant, and preview grants
 * that end with their user (docs/decisions/0921, 0922).
 */
describe('uploads and previews', { timeout: 120_000 }, () => {
  let h: CcHarness<'ed' | 'pub' | 'temp'>
  let image: { src: string; id: string }
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-cc-uploads-',
      staff: {
        ed: { name: 'Ed', role: 'editor' },
        pub: { name: 'Pub', role: 'publisher' },
        temp: { name: 'Temp', role: 'editor' },
      },
    })
    expect((await h.call('ed', 'POST', '/api/cc/branches', { title: 'Pictures', name: 'pics' })).status).toBe(
      201,
    )
    const png = await testPng(64, 48, '#c84')
    const up = await h.send('ed', 'POST', '/api/cc/branches/pics/images', png, {
      'content-type': 'image/png',
      'x-filename': 'hero.png',
    })
    expect(up.status, up.text).toBe(201)
    image = up.json.image
    const alt = await h.call('ed', 'PUT', `/api/cc/branches/pics/images/${image.id}`, { alt: 'A hero' })
    expect(alt.status, alt.text).toBe(200)
    await h.commitEdit('ed', 'pics', PAGE, (doc) => {
      doc.headline = 'Branch headline'
      doc.image = { src: image.src, alt: 'A hero', width: 64, height: 48 }
    })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)

  const page = (path: string) => h.send(null, 'GET', path, undefined, { host: BRAND_HOST })
  const headline = async (path: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec((await page(path)).text)?.[1]
  const previewUrl = async (who: 'ed' | 'temp') => {
    const r = await h.call(who, 'POST', '/api/cc/previews', { branch: 'pics', brand: 'm10', path: PAGE_URL })
    expect(r.status, r.text).toBe(200)
    const url = new URL(r.json.urls.m10)
    return { path: `${url.pathname}${url.search}`, grant: url.searchParams.get('fw_preview')! }
  }

  it('refuses bytes under images/uploads/ from a draft, a commit or a publish, naming the path', async () => {
    const evil = Buffer.from('<html><script>alert(document.cookie)</script></html>')
    const path = `${UPLOADS}/evil.${sha(evil).slice(0, 8)}.webp`
    const draft = await h.call('ed', 'PUT', `/api/cc/branches/pics/drafts?path=${path}`, {
      text: evil.toString(),
    })
    expect(draft.status).toBe(400)
    expect(draft.json.error).toContain(path)
    expect(draft.json.error).toMatch(/written only by the image upload/)

    // A draft saved before the guard existed still cannot be committed.
    const head = (await h.cc.repository.head('pics'))!
    await h.store.db.query(
      'INSERT INTO cc_drafts (user_id, branch, path, base_blob, text) VALUES ($1, $2, $3, NULL, $4)',
      [h.staff.ed.id, 'pics', path, evil.toString()],
    )
    const commit = await h.call('ed', 'POST', '/api/cc/branches/pics/commits', {
      message: 'sneak',
      expectedHead: head,
      paths: [path],
    })
    expect(commit.status).toBe(422)
    expect(commit.json.error).toContain(`${path}: it is not a WebP file`)
    expect(await h.cc.repository.head('pics')).toBe(head)
    await h.store.db.query('DELETE FROM cc_drafts WHERE path = $1', [path])

    // A branch written with plain git (a WebP with EXIF, its name hashing its bytes) is not published.
    expect(
      (await h.call('ed', 'POST', '/api/cc/branches', { title: 'Smuggle', name: 'smuggle' })).status,
    ).toBe(201)
    const base = (await h.cc.repository.head('smuggle'))!
    const exif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .withExif({ IFD0: { Make: 'x' } })
      .webp()
      .toBuffer()
    const pushed = `${UPLOADS}/gps.${sha(exif).slice(0, 8)}.webp`
    const smuggled = await h.cc.repository.repo.commitFiles(
      base,
      [{ path: pushed, content: exif }],
      'plain git',
      {
        name: 'Someone',
        email: 'someone@x.test',
      },
    )
    await h.cc.repository.moveRef('refs/heads/cc/smuggle', smuggled, base)
    const checks = await h.call('pub', 'GET', '/api/cc/branches/smuggle/checks')
    expect(checks.json.errors).toContainEqual(expect.objectContaining({ file: pushed }))
    const live = await h.cc.repository.repo.resolve(PUBLISHED_REF)
    const publish = await h.call('pub', 'POST', '/api/cc/branches/smuggle/publish', {
      expectedHead: smuggled,
    })
    expect(publish.status, publish.text).toBe(422)
    expect(publish.json.errors).toContainEqual(
      expect.objectContaining({
        file: pushed,
        message: expect.stringMatching(
          /^its VP8X header flags metadata.*; only the image upload writes under/,
        ),
      }),
    )
    expect(await h.cc.repository.repo.resolve(PUBLISHED_REF)).toBe(live)
  })

  it('serves an unpublished image only to staff or with a valid grant for its branch', async () => {
    expect((await page(image.src)).status).toBe(404)
    expect((await h.send(null, 'GET', image.src)).status).toBe(404)
    const staff = await h.send('ed', 'GET', image.src)
    expect(staff.status).toBe(200)
    expect(staff.headers['cache-control']).toBe('private, max-age=31536000, immutable')

    const { path, grant } = await previewUrl('ed')
    const granted = await page(`${image.src}?fw_preview=${grant}`)
    expect(granted.status).toBe(200)
    expect(granted.headers['content-type']).toBe('image/webp')
    expect(granted.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    const other = h.cc.previews.mint({ branch: 'live', userId: h.staff.ed.id, drafts: false }).token
    expect((await page(`${image.src}?fw_preview=${other}`)).status).toBe(404)
    expect((await page(`${image.src}?fw_preview=${grant}x`)).status).toBe(404)

    // The preview page itself asks for its images with the grant.
    const html = (await page(path)).text
    expect(html).toContain('Branch headline')
    expect(html).toContain(`${image.src}?fw_preview=${grant}`)
    expect((await page(PAGE_URL)).text).not.toContain(image.src)
  })

  it("ends a user's preview links within seconds of disabling them; refuses a grant for an unknown user", async () => {
    const { path, grant } = await previewUrl('temp')
    expect(await headline(path)).toBe('Branch headline')
    expect((await page(`${image.src}?fw_preview=${grant}`)).status).toBe(200)

    const email = (
      await h.store.db.query<{ email: string }>('SELECT email FROM staff_users WHERE id = $1', [
        h.staff.temp.id,
      ])
    ).rows[0].email
    expect(await setStaffDisabled(h.store.db, email, true)).toBe(true)
    const disabledAt = Date.now()
    while ((await headline(path)) === 'Branch headline') {
      expect(Date.now() - disabledAt).toBeLessThan(PREVIEW_ENDS_WITHIN_MS)
      await new Promise((r) => setTimeout(r, PREVIEW_GRANT_USER_RECHECK_MS / 4))
    }
    expect(Date.now() - disabledAt).toBeLessThan(PREVIEW_ENDS_WITHIN_MS)
    expect(await headline(path)).toBe('Check for a grocery benefit near you')
    expect((await page(`${image.src}?fw_preview=${grant}`)).status).toBe(404)

    const stranger = h.cc.previews.mint({ branch: 'pics', userId: randomUUID(), drafts: false }).token
    expect(await headline(`${PAGE_URL}?branch=pics&fw_preview=${stranger}`)).toBe(
      'Check for a grocery benefit near you',
    )
    expect((await page(`${image.src}?fw_preview=${stranger}`)).status).toBe(404)
  })
})
