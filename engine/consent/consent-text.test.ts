import { describe, expect, it } from 'vitest'
import type { ConsentText } from '../../schemas/generated/consent'
import { sha256Hex } from '../util/sha256'
import { consentClaimProblems } from './check-consent-claim'
import { fillConsent, placeholderProblems, selectConsent } from './consent-text'

const text = (over: Partial<ConsentText>): ConsentText => ({
  id: 'tcpa-medicare',
  vertical: 'medicare',
  language: 'english',
  text: 'By clicking “{buttonLabel}”, I agree that {sellerLegalName} may call me.',
  ...over,
})

describe('consent texts', () => {
  it('fills only the known placeholders and leaves every other character as stored', () => {
    expect(
      fillConsent('A “{buttonLabel}” {sellerLegalName} {other} $& {buttonLabel}', {
        sellerLegalName: 'Acme $1 LLC',
        buttonLabel: 'Go',
      }),
    ).toBe('A “Go” Acme $1 LLC {other} $& Go')
  })

  it('names a missing or unknown placeholder', () => {
    expect(placeholderProblems(text({}).text)).toEqual([])
    expect(placeholderProblems('{sellerLegalName} {seller}')).toEqual([
      'the text must name {buttonLabel} (it is filled in when shown)',
      'unknown placeholder {seller} (known: {sellerLegalName}, {buttonLabel})',
    ])
  })

  it('picks the text of the brand over its vertical, in the page language', () => {
    const all = [
      text({ id: 'v-en' }),
      text({ id: 'v-es', language: 'es' }),
      text({ id: 'b-en', brands: ['gs'] }),
      text({ id: 'auto', vertical: 'auto' }),
    ]
    expect(selectConsent(all, { id: 'm10', vertical: 'medicare' }, 'english')?.id).toBe('v-en')
    expect(selectConsent(all, { id: 'm10', vertical: 'medicare' }, 'es')?.id).toBe('v-es')
    expect(selectConsent(all, { id: 'gs', vertical: 'medicare' }, 'english')?.id).toBe('b-en')
    expect(selectConsent(all, { id: 'tqg', vertical: 'auto' }, 'es')).toBeUndefined()
  })
})

describe('a consent claim', () => {
  const template = text({}).text
  const shown = fillConsent(template, { sellerLegalName: 'Acme LLC', buttonLabel: 'Go' })
  const claim = {
    id: 'tcpa-medicare',
    version: 'tcpa-medicare@0123456789abcdef',
    text: shown,
    sha256: sha256Hex(shown),
    seller: 'Acme LLC',
    buttonLabel: 'Go',
  }
  const facts = { template, consentId: 'tcpa-medicare', sellerLegalName: 'Acme LLC', sha256: sha256Hex }

  it('passes when the text is the served version filled for the seller, with its own hash', () => {
    expect(consentClaimProblems(claim, facts)).toEqual([])
  })

  it('fails a text nobody was served, even with a matching hash', () => {
    const forged = `${shown} Also fax.`
    expect(consentClaimProblems({ ...claim, text: forged, sha256: sha256Hex(forged) }, facts)).toEqual([
      '/consent/text: is not the text of version "tcpa-medicare@0123456789abcdef" as the server serves it',
    ])
    expect(consentClaimProblems(claim, { ...facts, template: null })[0]).toMatch(/^\/consent\/version: /)
    expect(consentClaimProblems(claim, { ...facts, sellerLegalName: null })).toEqual([
      '/brand: unknown brand',
    ])
    expect(consentClaimProblems({ ...claim, sha256: '0'.repeat(64) }, facts, '/2')).toEqual([
      '/2/consent/sha256: is not the SHA-256 of the text',
    ])
  })
})
