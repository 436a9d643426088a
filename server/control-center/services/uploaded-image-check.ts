/**
 * Only the image pipeline writes under `ui/public/images/uploads/` (issue 27, docs/decisions/0921).
 * A blob there is taken only when it is exactly what server/control-center/services/image-pipeline.ts writes: named
 * `<id>.<first 8 hex of its SHA-256>.webp`, a WebP whose RIFF chunks are only image data (VP8, VP8L,
 * ALPH, a VP8X that flags nothing but alpha: no EXIF, ICC, XMP, animation or unknown chunk, nothing
 * after the RIFF), decodable whole, at most IMAGE_MAX_SIDE_PX a side, and described by
 * `definitions/images/<id>.json` of the same tree with the same src, size, byte count and hash.
 */
import { createHash } from 'node:crypto'
import {
  IMAGE_HASH_LENGTH,
  IMAGE_MAX_INPUT_PIXELS,
  IMAGE_MAX_SIDE_PX,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOADS_URL,
} from '../../../engine/content/image-limits'
import type { DefinitionError } from '../../../engine/snapshot/types'
import type { FileChange } from '../../content/git/content-repo'
import { CONTENT_IMAGES } from '../../content/git/import-content'
import { ContentError } from './content-errors'

/** Where the pipeline's WebP files live in the content repository. */
export const UPLOADS_PATH = `${CONTENT_IMAGES}/uploads/`
const NAME = new RegExp(`^([a-z0-9]+(?:-[a-z0-9]+)*)\\.([0-9a-f]{${IMAGE_HASH_LENGTH}})\\.webp$`)
/** The RIFF chunks libwebp writes for one still image; anything else is metadata or smuggled data. */
const IMAGE_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH'])
/** The VP8X flag bit for alpha, the only one the pipeline's output may set. */
const VP8X_ALPHA = 0x10

export const isUploadPath = (path: string) => path.startsWith(UPLOADS_PATH)

/** The definition file that must describe an upload at `path`, or null when the name is not the pipeline's. */
function uploadDefinitionPath(path: string): string | null {
  const m = NAME.exec(path.slice(UPLOADS_PATH.length))
  return m ? `definitions/images/${m[1]}.json` : null
}

/** Why the RIFF container is not the pipeline's, or null. */
function riffProblem(bytes: Buffer): string | null {
  if (
    bytes.length < 20 ||
    bytes.toString('latin1', 0, 4) !== 'RIFF' ||
    bytes.toString('latin1', 8, 12) !== 'WEBP'
  )
    return 'it is not a WebP file'
  if (bytes.readUInt32LE(4) + 8 !== bytes.length)
    return 'its RIFF size does not match its length (data after the image)'
  for (let at = 12; at < bytes.length; ) {
    if (at + 8 > bytes.length) return 'its last RIFF chunk is cut short'
    const type = bytes.toString('latin1', at, at + 4)
    const size = bytes.readUInt32LE(at + 4)
    if (!IMAGE_CHUNKS.has(type))
      return `it carries a "${type.trim()}" chunk (metadata or data the image pipeline never writes)`
    if (type === 'VP8X' && (bytes[at + 8] ?? 0) & ~VP8X_ALPHA)
      return 'its VP8X header flags metadata or animation, which the image pipeline never writes'
    at += 8 + size + (size & 1)
    if (at > bytes.length) return `its "${type.trim()}" chunk runs past the end of the file`
  }
  return null
}

/**
 * Why `bytes` at `path` is not what the image pipeline wrote (null when it is). `definition` is the
 * text of `definitions/images/<id>.json` in the same tree, or null when that file is absent.
 */
export async function uploadProblem(
  path: string,
  bytes: Buffer,
  definition: string | null,
): Promise<string | null> {
  const name = path.slice(UPLOADS_PATH.length)
  const m = NAME.exec(name)
  if (!m)
    return `"${name}" is not an uploaded image's name (<id>.<${IMAGE_HASH_LENGTH} hex digits of its SHA-256>.webp); upload images on the images screen`
  if (bytes.length > IMAGE_UPLOAD_MAX_BYTES) return `it is ${bytes.length} bytes, more than any upload`
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  if (sha256.slice(0, IMAGE_HASH_LENGTH) !== m[2])
    return `its bytes do not match the hash in its name (they hash to ${sha256.slice(0, IMAGE_HASH_LENGTH)})`
  const riff = riffProblem(bytes)
  if (riff) return riff
  const { default: sharp } = await import('sharp')
  let info: { width: number; height: number; format: string }
  try {
    const image = sharp(bytes, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'error' })
    const meta = await image.metadata()
    if (meta.exif || meta.icc || meta.xmp || meta.iptc) return 'it carries metadata (EXIF, ICC, XMP or IPTC)'
    // Decoding every pixel is what tells a real image from a valid header over garbage.
    await image.stats()
    info = { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? '' }
  } catch (e) {
    return `it is not a readable WebP image (${(e as Error).message})`
  }
  if (info.format !== 'webp') return 'it is not a WebP image'
  if (Math.max(info.width, info.height) > IMAGE_MAX_SIDE_PX)
    return `it is ${info.width}×${info.height}, larger than ${IMAGE_MAX_SIDE_PX} px on a side`
  const defPath = `definitions/images/${m[1]}.json`
  if (definition === null) return `${defPath}, the image it belongs to, is missing`
  let doc: Record<string, unknown>
  try {
    doc = JSON.parse(definition)
  } catch {
    return `${defPath}, the image it belongs to, is not JSON`
  }
  const expected = {
    src: `${IMAGE_UPLOADS_URL}${name}`,
    width: info.width,
    height: info.height,
    bytes: bytes.length,
    sha256,
  }
  const wrong = Object.entries(expected).filter(([k, v]) => doc?.[k] !== v)
  return wrong.length
    ? `${defPath} does not describe it: ${wrong.map(([k, v]) => `${k} should be ${JSON.stringify(v)}`).join(', ')}`
    : null
}

/** A problem as the publish and commit errors list it. */
const asError = (path: string, message: string): DefinitionError => ({
  file: path,
  line: 0,
  column: 0,
  pointer: '',
  message: `${message}; only the image upload writes under ${UPLOADS_PATH}`,
})

/**
 * The uploads among `paths` (those a commit or publish adds or changes) that the pipeline did not
 * write. `read` answers a path's bytes in the tree being checked, or null when it is absent there.
 */
export async function uploadErrors(
  paths: readonly string[],
  read: (path: string) => Promise<Buffer | null>,
): Promise<DefinitionError[]> {
  const errors: DefinitionError[] = []
  for (const path of paths) {
    if (!isUploadPath(path)) continue
    const bytes = await read(path)
    if (!bytes) continue
    const def = uploadDefinitionPath(path)
    const problem = await uploadProblem(
      path,
      bytes,
      def ? ((await read(def))?.toString('utf8') ?? null) : null,
    )
    if (problem) errors.push(asError(path, problem))
  }
  return errors
}

/**
 * Refuses (422, naming each path) a commit whose `changes` on top of a tree (`readBase`) put under
 * the uploads folder anything the pipeline did not write.
 */
export async function refuseForeignUploads(
  changes: readonly FileChange[],
  readBase: (path: string) => Promise<Buffer | null>,
): Promise<void> {
  if (!changes.some((c) => isUploadPath(c.path) && c.content !== null)) return
  const byPath = new Map(changes.map((c) => [c.path, c.content] as const))
  const errors = await uploadErrors(
    changes.map((c) => c.path),
    async (path) => {
      if (!byPath.has(path)) return readBase(path)
      const content = byPath.get(path)
      return content === null || content === undefined ? null : Buffer.from(content)
    },
  )
  if (errors.length) throw new ContentError(422, errors.map((e) => `${e.file}: ${e.message}`).join('\n'))
}
