import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_MAX_SIDE_PX } from '../../../engine/content/image-limits'
import { setField } from '../../../engine/control-center/content/set-field'
import { sniffImageType } from '../services/image-pipeline'

import { type CcHarness, startCcHarness } from './cc-test-harness'

const PAGE = 'definitions/pages/additional-benefits-grocery.json'
/** The GPS IFD pointer tag (0x8825), little- or big-endian, in an EXIF block. */
const hasGps = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x25, 0x88])) || exif.includes(Buffer.from([0x88, 0x25])))

/** Uploads through the real server: sniffing, sharp, one commit per write, the used-by index, serving. */
describe('images API', { timeout: 120_000 }, () => {
  let h: CcHarness<'ed'>
  beforeAll(async () => {
    h = await startCcHarness({ prefix: 'fw-cc-images-', staff: { ed: { name: 'Ed', role: 'editor' } } })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const send = (method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}) =>
    h.send('ed', method, path, body, headers)
  const call = (method: string, path: string, body?: unknown) => h.call('ed', method, path, body)
  const upload = (path: string, bytes: Buffer, type: string, filename: string, method = 'POST') =>
    send(method, path, bytes, { 'content-type': type, 'x-filename': encodeURIComponent(filename) })

  it('turns a 4000×3000 JPEG with GPS into a ≤ 2400 px WebP without metadata, served immutable; refuses SVG and text', async () => {
    expect((await call('POST', '/api/cc/branches', { title: 'Pictures', name: 'pics' })).status).toBe(201)
    // EXIF orientation 6 (rotate 90° clockwise) plus GPS coordinates, as a phone writes them.
    const jpeg = await sharp({
      create: { width: 4000, height: 3000, channels: 3, background: { r: 200, g: 100, b: 50 } },
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
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 80 })
      .toBuffer()
    const input = await sharp(jpeg).metadata()
    expect([input.width, input.height, input.orientation, hasGps(input.exif)]).toEqual([4000, 3000, 6, true])

    const up = await upload('/api/cc/branches/pics/images', jpeg, 'image/jpeg', 'Beach Trip (1).JPG')
    expect(up.status, up.body.toString()).toBe(201)
    const image = up.json.image
    expect(image).toMatchObject({ id: 'beach-trip-1', alt: '', decorative: false, width: 1800, height: 2400 })
    expect(image.src).toMatch(/^\/images\/uploads\/beach-trip-1\.[0-9a-f]{8}\.webp$/)
    expect(image.src).toContain(image.sha256.slice(0, 8))

    // One commit holds both files.
    const head = await h.cc.repository.head('pics')
    expect(up.json.commit).toBe(head)
    const [parent] = (await h.cc.repository.repo.log(head!, 2)).slice(1)
    expect((await h.cc.repository.repo.changedPaths(parent.commit, head!)).sort()).toEqual([
      'definitions/images/beach-trip-1.json',
      `ui/public${image.src}`,
    ])

    const served = await send('GET', image.src)
    expect(served.status).toBe(200)
    expect(served.headers['content-type']).toBe('image/webp')
    // Not published yet: only staff (here, signed in on the control center) see it, and no shared cache keeps it.
    expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    const out = await sharp(served.body).metadata()
    expect(out.format).toBe('webp')
    expect(Math.max(out.width, out.height)).toBeLessThanOrEqual(IMAGE_MAX_SIDE_PX)
    expect([out.width, out.height]).toEqual([1800, 2400])
    expect(out.exif).toBeUndefined()
    expect(out.orientation).toBeUndefined()
    expect(served.body.includes(Buffer.from('TestCam'))).toBe(false)
    const again = await send('GET', image.src, undefined, { 'if-none-match': String(served.headers.etag) })
    expect(again.status).toBe(304)

    const svg = Buffer.from(
      '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    )
    const refusedSvg = await upload('/api/cc/branches/pics/images', svg, 'image/svg+xml', 'logo.svg')
    expect(refusedSvg.status).toBe(415)
    expect(refusedSvg.json.error).toMatch(/"logo.svg" is an SVG: SVG uploads are refused/)
    const text = Buffer.from('hello, this is not a picture\n')
    const refusedText = await upload(
      '/api/cc/branches/pics/images',
      text,
      'application/octet-stream',
      'notes.txt',
    )
    expect(refusedText.status).toBe(415)
    expect(refusedText.json.error).toMatch(/"notes.txt" is not an image/)
    const asText = await upload('/api/cc/branches/pics/images', text, 'text/plain', 'notes.txt')
    expect(asText.status).toBe(415)
    expect(asText.json.error).toMatch(/Content-Type: send the image's bytes as image\/\*/)
    // A JPEG name on text bytes: the bytes decide.
    const disguised = await upload('/api/cc/branches/pics/images', text, 'image/jpeg', 'photo.jpg')
    expect(disguised.status).toBe(415)
    expect(await h.cc.repository.head('pics')).toBe(head)

    // Without alt text the branch has an error at /alt; the alt form refuses an empty alt.
    const checks = await call('GET', '/api/cc/branches/pics/checks')
    expect(checks.json.errors).toContainEqual(
      expect.objectContaining({
        file: 'definitions/images/beach-trip-1.json',
        pointer: '/alt',
        message: 'alt text is required unless the image is marked decorative',
      }),
    )
    const empty = await call('PUT', '/api/cc/branches/pics/images/beach-trip-1', { alt: '  ' })
    expect(empty.status).toBe(422)
    expect(empty.json.error).toBe('alt: describe the image, or mark it decorative')
    const alt = await call('PUT', '/api/cc/branches/pics/images/beach-trip-1', {
      alt: 'A beach at sunset',
      credit: 'Ed',
    })
    expect(alt.status).toBe(200)
    expect(alt.json.image).toMatchObject({ alt: 'A beach at sunset', credit: 'Ed', decorative: false })
    const after = await call('GET', '/api/cc/branches/pics/checks')
    expect(after.json.errors.filter((e: { file: string }) => e.file.includes('images/'))).toEqual([])
  })

  it('lists where an image is used, refuses to delete it while used, and replace updates every reference in one commit', async () => {
    const list = await call('GET', '/api/cc/branches/pics/images')
    const image = list.json.images.find((i: { id: string }) => i.id === 'beach-trip-1')
    expect(image.usedBy).toEqual([])

    // A page uses it (committed through the usual drafts).
    const pageText = (await h.cc.repository.repo.readText(`${list.json.head}:${PAGE}`))!
    const text = setField(pageText, '/image', {
      src: image.src,
      alt: image.alt,
      width: image.width,
      height: image.height,
    })
    expect((await call('PUT', `/api/cc/branches/pics/drafts?path=${PAGE}`, { text })).status).toBe(200)
    const commit = await call('POST', '/api/cc/branches/pics/commits', {
      message: 'beach hero',
      expectedHead: list.json.head,
      paths: [PAGE],
    })
    expect(commit.status).toBe(201)

    const used = (await call('GET', '/api/cc/branches/pics/images/beach-trip-1')).json.image
    expect(used.usedBy).toEqual([
      { kind: 'page', id: 'additional-benefits-grocery', path: PAGE, pointer: '/image' },
    ])
    const refused = await call('DELETE', '/api/cc/branches/pics/images/beach-trip-1')
    expect(refused.status).toBe(409)
    expect(refused.json.error).toMatch(
      /image "beach-trip-1" is used by page "additional-benefits-grocery" \(\/image\)/,
    )
    expect(refused.json.usedBy).toEqual(used.usedBy)

    // Replace: a new file, same id, new hashed src; the page follows in the same commit.
    const png = await sharp({ create: { width: 300, height: 150, channels: 4, background: '#0a0' } })
      .png()
      .toBuffer()
    const rep = await upload(
      '/api/cc/branches/pics/images/beach-trip-1/file',
      png,
      'image/png',
      'better.png',
      'PUT',
    )
    expect(rep.status, rep.body.toString()).toBe(200)
    expect(rep.json.updated).toEqual([PAGE])
    const next = rep.json.image
    expect(next).toMatchObject({ id: 'beach-trip-1', width: 300, height: 150, alt: 'A beach at sunset' })
    expect(next.src).not.toBe(image.src)
    const head = (await h.cc.repository.head('pics'))!
    const [, parent] = await h.cc.repository.repo.log(head, 2)
    expect((await h.cc.repository.repo.changedPaths(parent.commit, head)).sort()).toEqual(
      [PAGE, 'definitions/images/beach-trip-1.json', `ui/public${image.src}`, `ui/public${next.src}`].sort(),
    )
    const page = JSON.parse((await h.cc.repository.repo.readText(`${head}:${PAGE}`))!)
    expect(page.image).toEqual({ src: next.src, alt: 'A beach at sunset', width: 300, height: 150 })
    expect((await send('GET', next.src)).status).toBe(200)
    const checks = await call('GET', '/api/cc/branches/pics/checks')
    expect(
      checks.json.errors.filter((e: { file: string }) => e.file === PAGE || e.file.includes('images/')),
    ).toEqual([])

    // Once nothing uses it, delete removes the definition and the file in one commit.
    const restored = await call('PUT', `/api/cc/branches/pics/drafts?path=${PAGE}`, { text: pageText })
    expect(restored.status).toBe(200)
    expect(
      (
        await call('POST', '/api/cc/branches/pics/commits', {
          message: 'back',
          expectedHead: head,
          paths: [PAGE],
        })
      ).status,
    ).toBe(201)
    const del = await call('DELETE', '/api/cc/branches/pics/images/beach-trip-1')
    expect(del.status).toBe(200)
    expect((await call('GET', '/api/cc/branches/pics/images')).json.images).toEqual([])
    expect((await call('GET', '/api/cc/branches/pics/images/beach-trip-1')).status).toBe(404)
  })

  it('knows image types by their first bytes', async () => {
    const make = (f: 'jpeg' | 'png' | 'webp' | 'gif' | 'avif') =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
        .toFormat(f)
        .toBuffer()
    for (const f of ['jpeg', 'png', 'webp', 'gif', 'avif'] as const)
      expect(sniffImageType(await make(f))).toBe(f)
    expect(sniffImageType(Buffer.from('\uFEFF  <svg></svg>'))).toBe('svg')
    expect(sniffImageType(Buffer.from('%PDF-1.7'))).toBeNull()
  })
})
