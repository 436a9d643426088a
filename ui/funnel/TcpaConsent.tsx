import type { Brand } from '../../engine/snapshot/types'

/**
 * Telephone Consumer Protection Act consent, beside any step that collects a phone number, written
 * for the brand that collects it.
 */
export function TcpaConsent({ brand, buttonLabel }: { brand: Brand | null; buttonLabel: string }) {
  const owner = brand?.ownerLegalName ?? brand?.name ?? 'we'
  const topic = brand?.vertical === 'auto' ? 'auto insurance' : 'Medicare and insurance plans'
  return (
    <p className="tcpa" data-testid="tcpa-consent">
      By clicking “{buttonLabel}”, I agree that {owner} and its licensed agents may contact me at the number
      provided, including by autodialer, prerecorded messages and text, about {topic}. Consent is not a
      condition of purchase. Message and data rates may apply.
    </p>
  )
}
