import { createHash } from 'node:crypto'

/**
 * SHA-256 of a text's UTF-8 bytes, hex. The server checks consent records with node:crypto, an
 * implementation independent of the browser's (engine/util/sha256.ts).
 */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}
