/**
 * Consent evidence in the browser (docs/decisions/0800): the consent text each funnel step showed,
 * exactly as rendered, and — when the visitor submits that step — a consent record queued beside the
 * events (the one queue: retried until acknowledged, kept across a reload, beaconed on page hide).
 */
import type { ConsentShown } from '../../engine/consent/consent-text'
import type { Resolution } from '../../engine/render/resolution'
import type { ConsentRecordDraft } from './tracking/tracker'

/** What a step showed: the version, the text as rendered, and what was filled into it. */
export interface ShownConsent {
  consent: ConsentShown
  text: string
  seller: string
  buttonLabel: string
  /** Names of the fields the step collects. */
  fields: string[]
}

export interface ConsentControl {
  /** The consent component tells what it rendered beside a step. */
  shown(stepName: string, shown: ShownConsent): void
  /** The visitor submitted a step (valid answers): its consent, if it showed one, is recorded. */
  given(step: { stepName: string; stepNumber: number; formVersion: string }): void
}

export function startConsent(
  resolution: Resolution,
  record: () => ((draft: ConsentRecordDraft) => void) | null,
): ConsentControl {
  const byStep = new Map<string, ShownConsent>()
  // The hash code is fetched when a step first shows a consent text (long before its submit), so
  // pages without consent never download it.
  let sha: Promise<typeof import('../../engine/util/sha256')> | null = null
  const loadSha = () => {
    sha ??= import('../../engine/util/sha256')
    return sha
  }
  return {
    shown(stepName, shown) {
      byStep.set(stepName, shown)
      void loadSha()
    },
    given({ stepName, stepNumber, formVersion }) {
      const shown = byStep.get(stepName)
      const send = record()
      if (!shown || !send || !resolution.brand || !resolution.page) return
      const experiment = resolution.experiment?.preview ? undefined : resolution.experiment
      const { brand, page } = resolution
      void loadSha().then(({ sha256Hex }) =>
        send({
          brand: brand.id,
          pageKey: page.key,
          formVersion,
          stepName,
          stepNumber,
          consent: {
            id: shown.consent.id,
            version: shown.consent.version,
            text: shown.text,
            sha256: sha256Hex(shown.text),
            seller: shown.seller,
            buttonLabel: shown.buttonLabel,
          },
          fields: shown.fields,
          url: window.location.href,
          snapshotId: resolution.snapshotId,
          ...(experiment ? { experiment: { id: experiment.id, variant: experiment.variant } } : {}),
        }),
      )
    },
  }
}
