import { describe, expect, it } from 'vitest'
import { PreviewGrants } from '../control-center/services/preview-grants'
import { ResumeLinks } from '../render/funnel-resume'
import { signedToken, verifiedPayload } from './signed-token'

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** The token with its last character replaced by every other base64url character (63 spellings). */
function otherLastCharacters(token: string): string[] {
  const last = token.at(-1)
  return [...BASE64URL].filter((c) => c !== last).map((c) => token.slice(0, -1) + c)
}

/** Whether a spelling decodes to the same bytes as the original: the spellings a byte compare accepts. */
const sameBytes = (a: string, b: string) =>
  Buffer.from(a.split('.')[1], 'base64url').equals(Buffer.from(b.split('.')[1], 'base64url'))

describe('signed tokens: exactly one spelling of a signature', () => {
  const secret = 's'.repeat(64)
  const tokens = Array.from({ length: 16 }, (_, i) => signedToken(secret, 'fw-test', `payload-${i}`))

  it('accepts the token as minted and refuses every other spelling of its last character', () => {
    let sameBytesSpellings = 0
    for (const token of tokens) {
      expect(verifiedPayload(secret, 'fw-test', token)).toBe(token.split('.')[0])
      for (const other of otherLastCharacters(token)) {
        if (sameBytes(token, other)) sameBytesSpellings++
        expect(verifiedPayload(secret, 'fw-test', other), other).toBeNull()
      }
    }
    // The test is not empty: a 32-byte MAC's last character has 2 unused bits, so each token has
    // three other spellings that decode to its bytes (the ones a byte compare would accept).
    expect(sameBytesSpellings).toBe(tokens.length * 3)
  })

  it('refuses padding, other labels, other keys, non-ASCII look-alikes and garbage', () => {
    const token = tokens[0]
    for (const bad of [
      `${token}=`,
      `${token}==`,
      `${token} `,
      token.replace('.', '..'),
      `${token.slice(0, -1)}ı`, // U+0131: its low byte is "1"
      signedToken(secret, 'fw-other', 'payload-0'),
      signedToken('t'.repeat(64), 'fw-test', 'payload-0'),
      '',
      '.',
      `.${token.split('.')[1]}`,
      'x'.repeat(5000),
      null,
      undefined,
    ])
      expect(verifiedPayload(secret, 'fw-test', bad), String(bad)).toBeNull()
  })

  it('a resume link with any other spelling of its signature is refused', () => {
    const links = new ResumeLinks(secret)
    for (let i = 0; i < 16; i++) {
      const host = 'm10.localhost:3000'
      const { token: link } = links.mint({
        anonymousId: `visitor-${String(i).padStart(4, '0')}`,
        path: '/quiz/otc',
        host,
        days: 3,
      })
      expect(links.verify(link, host)).not.toBeNull()
      for (const other of otherLastCharacters(link)) expect(links.verify(other, host), other).toBeNull()
    }
  })

  it('a preview grant with any other spelling of its signature is refused', () => {
    const grants = new PreviewGrants(secret)
    for (let i = 0; i < 16; i++) {
      const { token } = grants.mint({ branch: `branch-${i}`, userId: 'u1', drafts: i % 2 === 0 })
      expect(grants.verify(token)).not.toBeNull()
      for (const other of otherLastCharacters(token)) expect(grants.verify(other), other).toBeNull()
    }
  })
})
