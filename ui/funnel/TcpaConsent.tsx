import { useEffect } from 'react'
import { fillConsent } from '../../engine/consent/consent-text'
import type { Resolution } from '../../engine/render/resolution'
import type { ResolvedStep } from '../../engine/snapshot/types'
import { useRuntime } from '../runtime/runtime-context'

/**
 * Telephone Consumer Protection Act consent beside a step that collects a phone number: the consent
 * text the server chose for the brand and the page's language (definitions/consent/), shown exactly as
 * stored with the seller's legal name and the button label filled in. What it shows is handed to the
 * runtime, which records it when the step is submitted (docs/decisions/0800).
 */
export function TcpaConsent({
  resolution,
  step,
  buttonLabel,
}: {
  resolution: Resolution
  step: ResolvedStep
  buttonLabel: string
}) {
  const runtime = useRuntime()
  const consent = resolution.consent
  const seller = resolution.brand?.ownerLegalName
  const text =
    consent && seller ? fillConsent(consent.template, { sellerLegalName: seller, buttonLabel }) : null
  useEffect(() => {
    if (!runtime || !consent || !seller || text === null) return
    runtime.consent.shown(step.name, {
      consent,
      text,
      seller,
      buttonLabel,
      fields: step.fields.map((f) => f.name),
    })
  }, [runtime, consent, seller, text, buttonLabel, step])
  if (text === null || !consent) return null
  return (
    <p className="tcpa" data-testid="tcpa-consent" data-consent-version={consent.version}>
      {text}
    </p>
  )
}
