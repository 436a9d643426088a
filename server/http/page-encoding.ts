/**
 * Which precompressed form of a cached page a request gets: the choice koa-compress makes for the same
 * Accept-Encoding (server/app.ts), so the Koa chain and the page fast path answer alike
 * (docs/decisions/0530). Same negotiator, same offers in the same order of preference, same defaults
 * (no header: identity; `*`: gzip), same threshold.
 */
import zlib from 'node:zlib'
import Negotiator from 'negotiator'

/** koa-compress's default order of preference, less the encodings this Node lacks (zstd before 22.15). */
const OFFERED = ['zstd', 'br', 'gzip', 'deflate', 'identity'].filter(
  (e) => e !== 'zstd' || 'createZstdCompress' in zlib,
)
/** koa-compress's default threshold: smaller bodies go uncompressed. */
export const COMPRESS_THRESHOLD_BYTES = 1024

export type PageEncoding = 'br' | 'gzip' | 'identity'

/**
 * The encoding koa-compress would pick for a body of `size` bytes, when it is one a cached page keeps;
 * null for another (deflate, zstd), which the Koa chain then compresses per response.
 */
export function pageEncodingFor(acceptEncoding: string | undefined, size: number): PageEncoding | null {
  if (size < COMPRESS_THRESHOLD_BYTES) return 'identity'
  const header = acceptEncoding === '*' ? 'gzip' : acceptEncoding || 'identity'
  // The typings describe negotiator 0.6; 1.x takes the server's preference as a second argument.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as {
    encoding(available: string[], opts: { preferred: string[] }): string | undefined
  }
  const chosen = negotiator.encoding(OFFERED, { preferred: OFFERED })
  return chosen === 'br' || chosen === 'gzip' || chosen === 'identity' ? chosen : null
}
