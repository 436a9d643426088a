/**
 * Consent texts as content (docs/decisions/0800): which text a brand's page shows, and the text
 * exactly as shown — the stored text with its placeholders filled. Pure: the server, the browser and
 * the cross-checks use the same functions, so what is shown, checked and recorded cannot drift apart.
 */
import type { ConsentText } from '../../schemas/generated/consent'

/** The placeholders a consent text may (and must) hold. */
export const CONSENT_PLACEHOLDERS = ['sellerLegalName', 'buttonLabel'] as const
export type ConsentPlaceholder = (typeof CONSENT_PLACEHOLDERS)[number]

const PLACEHOLDER = /\{([a-zA-Z][a-zA-Z0-9]*)\}/g

/** The consent text as the visitor sees it. */
export interface ConsentShown {
  /** Consent document id (definitions/consent/<id>.json). */
  id: string
  /** `<id>@<first 16 hex of the SHA-256 of the stored text>`: a changed word is a new version. */
  version: string
  language: 'english' | 'es'
  /** The stored text, placeholders unfilled. */
  template: string
}

/** Problems of a stored text's placeholders: one missing, or one nobody fills. */
export function placeholderProblems(text: string): string[] {
  const found = new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))
  const problems: string[] = []
  for (const p of CONSENT_PLACEHOLDERS)
    if (!found.has(p)) problems.push(`the text must name {${p}} (it is filled in when shown)`)
  for (const p of found)
    if (!(CONSENT_PLACEHOLDERS as readonly string[]).includes(p))
      problems.push(
        `unknown placeholder {${p}} (known: ${CONSENT_PLACEHOLDERS.map((x) => `{${x}}`).join(', ')})`,
      )
  return problems
}

/** The text exactly as shown: every placeholder replaced, nothing else touched. */
export function fillConsent(template: string, values: Record<ConsentPlaceholder, string>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    (CONSENT_PLACEHOLDERS as readonly string[]).includes(name) ? values[name as ConsentPlaceholder] : whole,
  )
}

/**
 * The consent text a brand shows on a page of a language: one naming the brand wins over its
 * vertical's; undefined when none is configured (the cross-check reports that).
 */
export function selectConsent(
  texts: Iterable<ConsentText>,
  brand: { id: string; vertical: string },
  language: 'english' | 'es',
): ConsentText | undefined {
  let vertical: ConsentText | undefined
  for (const t of texts) {
    if (t.language !== language) continue
    if (t.brands?.includes(brand.id)) return t
    if (!t.brands && t.vertical === brand.vertical) vertical ??= t
  }
  return vertical
}
