/**
 * The rule a consent record must pass before it is stored (pure; server/api/consent.ts runs it): the
 * text is exactly a version the server served, filled for the brand's seller and the claimed button
 * label, and the hash is that text's. A forged record cannot claim a text nobody was shown.
 */
import type { ConsentClaim } from '../../schemas/generated/api-consent-record'
import { fillConsent } from './consent-text'

export interface ClaimFacts {
  /** The stored text of the claimed version, or null when the server never served that version. */
  template: string | null
  /** Consent id of that version. */
  consentId: string | null
  /** The legal name of the record's brand, or null when the brand is unknown. */
  sellerLegalName: string | null
  sha256(text: string): string
}

/** Problems with a claim, each starting with the field at fault; empty when it may be stored. */
export function consentClaimProblems(claim: ConsentClaim, facts: ClaimFacts, at = ''): string[] {
  if (facts.sellerLegalName === null) return [`${at}/brand: unknown brand`]
  if (facts.template === null)
    return [`${at}/consent/version: "${claim.version}" is not a consent text this server has served`]
  const problems: string[] = []
  if (facts.consentId !== claim.id)
    problems.push(
      `${at}/consent/id: version "${claim.version}" belongs to "${facts.consentId}", not "${claim.id}"`,
    )
  if (claim.seller !== facts.sellerLegalName)
    problems.push(`${at}/consent/seller: the brand's seller is "${facts.sellerLegalName}"`)
  const expected = fillConsent(facts.template, {
    sellerLegalName: facts.sellerLegalName,
    buttonLabel: claim.buttonLabel,
  })
  if (claim.text !== expected)
    problems.push(`${at}/consent/text: is not the text of version "${claim.version}" as the server serves it`)
  if (facts.sha256(claim.text) !== claim.sha256)
    problems.push(`${at}/consent/sha256: is not the SHA-256 of the text`)
  return problems
}
