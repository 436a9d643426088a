import { createHash } from 'node:crypto'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { IMAGE_MAX_SIDE_PX } from '../../../engine/content/image-limits'
import { encodeImage } from './image-pipeline'
import { UPLOADS_PATH, uploadProblem } from './uploaded-image-check'

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
/** The path and definition text the image library writes for these bytes. */
const stored = (bytes: Buffer, width: number, height: number, id = 'hero') => {
  const name = `${id}.${sha(bytes).slice(0, 8)}.webp`
  return {
    path: `${UPLOADS_PATH}${name}`,
    definition: JSON.stringify({
      id,
      src: `/images/uploads/${name}`,
      width,
      height,
      bytes: bytes.length,
      sha256: sha(bytes),
    }),
  }
}
const check = async (bytes: Buffer, width: number, height: number) => {
  const { path, definition } = stored(bytes, width, height)
  return uploadProblem(path, bytes, definition)
}
const picture = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } })

/** What may sit under images/uploads/: exactly what the pipeline writes (docs/decisions/0921). */
describe('uploaded image check', { timeout: 30_000 }, () => {
  it('takes what the pipeline writes, from a JPEG with EXIF, a PNG with alpha and a GIF', async () => {
    const sources = [
      await picture(300, 200)
        .withExif({ IFD0: { Make: 'Cam' } })
        .jpeg()
        .toBuffer(),
      await picture(64, 48, 4).png().toBuffer(),
      await picture(20, 10).gif().toBuffer(),
    ]
    for (const source of sources) {
      const e = await encodeImage(source, 'x')
      expect(await check(e.webp, e.width, e.height)).toBeNull()
    }
  })

  it('refuses other bytes, metadata, data after the image, a wrong hash, size or definition', async () => {
    const e = await encodeImage(await picture(40, 30).png().toBuffer(), 'x')
    const png = await picture(40, 30).png().toBuffer()
    expect(await check(png, 40, 30)).toBe('it is not a WebP file')
    expect(await check(Buffer.from('<script>alert(1)</script>'), 40, 30)).toBe('it is not a WebP file')
    const withExif = await picture(40, 30)
      .withExif({ IFD0: { Make: 'Cam' } })
      .webp()
      .toBuffer()
    expect(await check(withExif, 40, 30)).toMatch(/VP8X header flags metadata|"EXIF" chunk/)
    const tail = Buffer.concat([e.webp, Buffer.from('<html>')])
    expect(await check(tail, 40, 30)).toMatch(/RIFF size does not match/)
    // A chunk of its own inside a well-formed RIFF.
    const extra = Buffer.concat([e.webp, Buffer.from('HTML'), Buffer.from([4, 0, 0, 0]), Buffer.from('<b>x')])
    extra.writeUInt32LE(extra.length - 8, 4)
    expect(await check(extra, 40, 30)).toMatch(/carries a "HTML" chunk/)
    const big = await picture(IMAGE_MAX_SIDE_PX + 1, 8)
      .webp()
      .toBuffer()
    expect(await check(big, IMAGE_MAX_SIDE_PX + 1, 8)).toMatch(/larger than 2400 px/)

    const { path, definition } = stored(e.webp, e.width, e.height)
    expect(await uploadProblem(path.replace(/\.[0-9a-f]{8}\./, '.00000000.'), e.webp, definition)).toMatch(
      /do not match the hash in its name/,
    )
    expect(await uploadProblem(`${UPLOADS_PATH}hero.webp`, e.webp, definition)).toMatch(
      /not an uploaded image's name/,
    )
    expect(await uploadProblem(path, e.webp, null)).toBe(
      'definitions/images/hero.json, the image it belongs to, is missing',
    )
    expect(await uploadProblem(path, e.webp, JSON.stringify({ ...JSON.parse(definition), width: 41 }))).toBe(
      'definitions/images/hero.json does not describe it: width should be 40',
    )
  })
})
