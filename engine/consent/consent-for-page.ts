/**
 * Consent text versions (docs/decisions/0800): the version id of a stored text, and the text a funnel
 * page shows on a brand (the server puts it in the page's resolution).
 */
import type { ConsentText } from '../../schemas/generated/consent'
import type { Brand, PageEntry, Snapshot } from '../snapshot/types'
import { sha256Hex } from '../util/sha256'
import { type ConsentShown, selectConsent } from './consent-text'

/** Hex digits of the text's SHA-256 kept in a version id: 64 bits, no collision among a brand's texts. */
const VERSION_HASH_HEX = 16

/** A stored consent text as a version: `<id>@<first 16 hex of sha256(text)>`. */
export function consentVersion(doc: ConsentText): ConsentShown {
  return {
    id: doc.id,
    version: `${doc.id}@${sha256Hex(doc.text).slice(0, VERSION_HASH_HEX)}`,
    language: doc.language,
    template: doc.text,
  }
}

const bySnapshot = new WeakMap<Snapshot, ConsentShown[]>()

/** Every consent version of a snapshot (computed once per snapshot). */
export function snapshotConsentVersions(snapshot: Snapshot): ConsentShown[] {
  let list = bySnapshot.get(snapshot)
  if (!list) {
    list = [...snapshot.documents.consent.values()].map(consentVersion)
    bySnapshot.set(snapshot, list)
  }
  return list
}

/** The consent text a funnel page shows on a brand, when one of its steps asks a phone number. */
export function consentForPage(snapshot: Snapshot, page: PageEntry, brand: Brand): ConsentShown | undefined {
  const funnel = page.form ? snapshot.funnels.get(page.form) : undefined
  if (!funnel?.steps.some((s) => s.fields.some((f) => f.kind === 'tel'))) return undefined
  const doc = selectConsent(snapshot.documents.consent.values(), brand, page.language)
  return doc && snapshotConsentVersions(snapshot).find((v) => v.id === doc.id)
}
