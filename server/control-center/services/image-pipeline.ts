/**
 * The upload pipeline of the control center's images (CONTROL-CENTER §3 "Image", docs/decisions/0920):
 * the real type from the file's first bytes (never its name or Content-Type), SVG and non-images
 * refused, then one re-encoding with sharp — auto-oriented from EXIF, every metadata block dropped
 * (GPS included: sharp writes none unless asked), at most IMAGE_MAX_SIDE_PX on the longest side,
 * WebP at IMAGE_WEBP_QUALITY.
 */
import { createHash } from 'node:crypto'
import {
  IMAGE_MAX_INPUT_PIXELS,
  IMAGE_MAX_SIDE_PX,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_WEBP_QUALITY,
} from '../../../engine/content/image-limits'
import { ContentError } from './content-errors'

export type ImageType = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif'
export const ACCEPTED_IMAGE_TYPES: readonly ImageType[] = ['jpeg', 'png', 'webp', 'gif', 'avif']

const ascii = (buf: Buffer, from: number, to: number) => buf.subarray(from, to).toString('latin1')

/** What the bytes are: an accepted image type, `svg`, another ISO-BMFF image (`heif`), or null. */
export function sniffImageType(buf: Buffer): ImageType | 'svg' | 'heif' | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg'
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png'
  if (buf.length >= 6 && /^GIF8[79]a$/.test(ascii(buf, 0, 6))) return 'gif'
  if (buf.length >= 12 && ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return 'webp'
  if (buf.length >= 12 && ascii(buf, 4, 8) === 'ftyp') {
    // ISO-BMFF: the major brand, then the compatible brands up to the end of the ftyp box.
    const boxEnd = Math.min(buf.readUInt32BE(0), buf.length, 256)
    const brands = [ascii(buf, 8, 12)]
    for (let i = 16; i + 4 <= boxEnd; i += 4) brands.push(ascii(buf, i, i + 4))
    if (brands.some((b) => b === 'avif' || b === 'avis')) return 'avif'
    if (brands.some((b) => /^(heic|heix|hevc|heim|heis|mif1|msf1)$/.test(b))) return 'heif'
    return null
  }
  // SVG is text: a BOM, whitespace, an XML declaration, comments or a doctype may come first.
  const head = buf
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase()
  if (
    head.startsWith('<svg') ||
    ((head.startsWith('<?xml') || head.startsWith('<!')) && head.includes('<svg'))
  )
    return 'svg'
  return null
}

export interface EncodedImage {
  webp: Buffer
  width: number
  height: number
  sha256: string
  /** The type the upload really was. */
  sourceType: ImageType
}

/** Refuses what is not an accepted image with a 415 that says what the bytes are and what is taken. */
export function checkImageBytes(bytes: Buffer, filename: string): ImageType {
  const taken = 'JPEG, PNG, WebP, GIF or AVIF'
  if (!bytes.length) throw new ContentError(422, `"${filename}" is empty; send a ${taken} image`)
  if (bytes.length > IMAGE_UPLOAD_MAX_BYTES)
    throw new ContentError(
      413,
      `"${filename}" is ${bytes.length} bytes; the limit is ${IMAGE_UPLOAD_MAX_BYTES} bytes (${IMAGE_UPLOAD_MAX_BYTES / (1024 * 1024)} MB)`,
    )
  const type = sniffImageType(bytes)
  if (type === 'svg')
    throw new ContentError(
      415,
      `"${filename}" is an SVG: SVG uploads are refused (an SVG can carry script); send a ${taken} image`,
    )
  if (type === 'heif')
    throw new ContentError(
      415,
      `"${filename}" is HEIC/HEIF, which is not taken; export it as JPEG, or send a ${taken} image`,
    )
  if (!type) throw new ContentError(415, `"${filename}" is not an image (its bytes are none of ${taken})`)
  return type
}

/** Checks and re-encodes an upload: the WebP bytes to store with their size and hash. */
export async function encodeImage(bytes: Buffer, filename: string): Promise<EncodedImage> {
  const sourceType = checkImageBytes(bytes, filename)
  // Loaded on the first upload: libvips costs ~20 MB of resident memory a server without uploads
  // never needs (issue 19, docs/decisions/0510).
  const { default: sharp } = await import('sharp')
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({
        width: IMAGE_MAX_SIDE_PX,
        height: IMAGE_MAX_SIDE_PX,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: IMAGE_WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true })
    return {
      webp: data,
      width: info.width,
      height: info.height,
      sha256: createHash('sha256').update(data).digest('hex'),
      sourceType,
    }
  } catch (e) {
    const msg = (e as Error).message
    if (/pixel limit/i.test(msg))
      throw new ContentError(
        422,
        `"${filename}" has more than ${IMAGE_MAX_INPUT_PIXELS / 1_000_000} megapixels; scale it down before uploading`,
      )
    throw new ContentError(
      422,
      `"${filename}" could not be read as a ${sourceType.toUpperCase()} image (${msg})`,
    )
  }
}
