/* Generated from schemas/cc-answers/phone-rules.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { DefinitionError, FileKind, FileState, PageInfo, Sha } from './common'
export type { DefinitionError, FileKind, FileState, PageInfo, Sha }

/**
 * Answers of the phone-rules screen (server/api/control-center/phone-rules.ts). Each property names one answer.
 */
export interface CcPhoneRuleAnswers {
  CcPhoneRules?: CcPhoneRules
}
/**
 * GET /api/cc/branches/:b/phone-rules: every rule with my drafts laid over, the brands, the pages served on each, and the coverage.
 *
 * This interface was referenced by `CcPhoneRuleAnswers`'s JSON-Schema
 * via the `definition` "CcPhoneRules".
 */
export interface CcPhoneRules {
  head: Sha
  rules: PhoneRuleRow[]
  brands: {
    id: string
    name: string
    public: boolean
  }[]
  /**
   * Brand id → the keys of the pages served on it.
   */
  pages: {
    [k: string]: string[]
  }
  coverage: PhoneRuleCoverage
}
/**
 * A phone-rule file of the branch as the phone-rules screen shows it.
 *
 * This interface was referenced by `CcPhoneRuleAnswers`'s JSON-Schema
 * via the `definition` "PhoneRuleRow".
 */
export interface PhoneRuleRow {
  path: string
  kind: FileKind
  id: string
  state: FileState
  draft: boolean
  problems: number
  page?: PageInfo
  /**
   * The document (my draft when I have one), as saved: a draft need not be valid yet (`errors` says why); null when its text is not a JSON object.
   */
  rule: import('../phone-rule').PhoneRule | null
  /**
   * Validation errors of this file (schema and cross-checks) at their pointers.
   */
  errors: DefinitionError[]
}
/**
 * Rules that can never win, and the pages that fall through to a brand's default (engine/phone/phone-rule-coverage.ts).
 *
 * This interface was referenced by `CcPhoneRuleAnswers`'s JSON-Schema
 * via the `definition` "PhoneRuleCoverage".
 */
export interface PhoneRuleCoverage {
  shadowed: ShadowedRule[]
  fallThrough: FallThrough[]
}
export interface ShadowedRule {
  id: string
  brand: string
  /**
   * The rules that win instead wherever this one matches (empty: it matches no visitor at all).
   */
  shadowedBy: string[]
}
export interface FallThrough {
  brand: string
  /**
   * The brand's default rule.
   */
  defaultRule: string
  /**
   * Pages of the brand no rule names in `match.pages`.
   */
  pages: string[]
  /**
   * Pages some rule of the brand names.
   */
  specificPages: string[]
}
