import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PREVIEW_GRANT_TTL_MS } from '../../../engine/constants'
import { PreviewGrants } from './preview-grants'

const grants = new PreviewGrants('k'.repeat(64))

describe('preview grants', () => {
  it('gives back the branch, user and drafts flag it was minted with until it expires', () => {
    const now = 1_800_000_000_000
    const { token, expiresAt } = grants.mint({ branch: 'spring-promo', userId: 'u1', drafts: true }, now)
    expect(expiresAt).toBe(now + PREVIEW_GRANT_TTL_MS)
    expect(grants.verify(token, now + 1000)).toEqual({
      branch: 'spring-promo',
      userId: 'u1',
      drafts: true,
      expiresAt,
    })
    expect(grants.verify(token, expiresAt)).toBeNull()
  })

  it('refuses a token signed with another key, a changed payload, and garbage', () => {
    const { token } = grants.mint({ branch: 'a', userId: 'u1', drafts: false })
    expect(new PreviewGrants('x'.repeat(64)).verify(token)).toBeNull()
    const [payload, sig] = token.split('.')
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), b: 'other' }),
    ).toString('base64url')
    expect(grants.verify(`${forged}.${sig}`)).toBeNull()
    for (const bad of [
      '',
      '.',
      'abc',
      `${payload}.`,
      `${payload}.${sig}x`,
      'a'.repeat(5000),
      undefined,
      null,
    ])
      expect(grants.verify(bad as string)).toBeNull()
  })

  it('keeps a generated key in the data folder, readable only by the server', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'fw-preview-')), 'preview.key')
    const a = PreviewGrants.fromConfig(null, file)
    const b = PreviewGrants.fromConfig(null, file)
    expect(a.secret).toBe(b.secret)
    expect(readFileSync(file, 'utf8').trim()).toHaveLength(64)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(PreviewGrants.fromConfig('s'.repeat(40), file).secret).toBe('s'.repeat(40))
  })
})
