import { randomUUID } from 'node:crypto'
import { consentForPage } from '../../engine/consent/consent-for-page'
import { fillConsent } from '../../engine/consent/consent-text'
import type { Snapshot } from '../../engine/snapshot/types'
import type { ConsentRecordBody } from '../../schemas/generated/api-consent-record'
import { sha256Hex } from './consent-versions'

/**
 * A valid consent record for tests (POST /api/consent/create): the phone step of the first funnel
 * page of `brandId` in `snapshot`, as the browser would send it.
 */
export function sampleConsentRecord(
  snapshot: Snapshot,
  brandId = 'm10',
  id: string = randomUUID(),
  buttonLabel = 'Get my quote',
): ConsentRecordBody {
  const brand = snapshot.brands.get(brandId)
  if (!brand) throw new Error(`no brand ${brandId}`)
  for (const page of snapshot.pages.values()) {
    if (!page.brands.includes(brandId) || page.language !== 'english') continue
    const consent = consentForPage(snapshot, page, brand)
    const funnel = page.form ? snapshot.funnels.get(page.form) : undefined
    const index = funnel?.steps.findIndex((s) => s.fields.some((f) => f.kind === 'tel')) ?? -1
    if (!consent || !funnel || index < 0) continue
    const text = fillConsent(consent.template, { sellerLegalName: brand.ownerLegalName, buttonLabel })
    return {
      type: 'consent',
      id,
      sessionId: 'sess-0001',
      anonymousId: 'anon-0001',
      userId: 'user-0001',
      brand: brandId,
      pageKey: page.key,
      formVersion: funnel.formVersion,
      stepName: funnel.steps[index].name,
      stepNumber: index + 1,
      consent: {
        id: consent.id,
        version: consent.version,
        text,
        sha256: sha256Hex(text),
        seller: brand.ownerLegalName,
        buttonLabel,
      },
      fields: funnel.steps[index].fields.map((f) => f.name),
      url: `http://${brandId}.localhost${page.path.replace(/\/\{[^}]+\}$/, '')}/${funnel.steps[index].name}`,
      snapshotId: snapshot.id,
    }
  }
  throw new Error(`brand ${brandId} has no funnel page with a phone step`)
}
