import { fillConsent } from '../../engine/consent/consent-text'
import type { Resolution } from '../../engine/render/resolution'

/**
 * Telephone Consumer Protection Act consent beside a step that collects a phone number: the consent
 * text the server chose for the brand and the page's language (definitions/consent/), shown exactly as
 * stored with the seller's legal name and the button label filled in. The server records it when the
 * step is posted (docs/decisions/0800), from the same text (server/render/funnel-post.ts).
 */
export function TcpaConsent({ resolution, buttonLabel }: { resolution: Resolution; buttonLabel: string }) {
  const consent = resolution.consent
  const seller = resolution.brand?.ownerLegalName
  const text =
    consent && seller ? fillConsent(consent.template, { sellerLegalName: seller, buttonLabel }) : null
  if (text === null || !consent) return null
  return (
    <p className="tcpa" data-testid="tcpa-consent" data-consent-version={consent.version}>
      {text}
    </p>
  )
}
