/**
 * Every cross-check the snapshot builder runs, in order: the checks that look across documents
 * (references, uniqueness, links served on a brand). A new definition kind adds its checks file and
 * one line here.
 */
import { checkConsent } from '../consent/consent-checks'
import { checkPhoneRules } from '../phone/phone-rule-checks'
import type { CrossCheck, CrossCheckInput } from './build-context'
import {
  checkArticles,
  checkExperiments,
  checkImages,
  checkLinksResolve,
  checkRelatedArticles,
} from './content-checks'
import { checkBrands, checkFunnels, checkPages, checkSite, checkSteps } from './foundation-checks'
import { checkPlaceholders } from './placeholder-check'

export const CROSS_CHECKS: readonly CrossCheck[] = [
  checkBrands,
  checkSite,
  checkPages,
  checkFunnels,
  checkSteps,
  checkPhoneRules,
  checkArticles,
  checkRelatedArticles,
  checkExperiments,
  checkImages,
  checkLinksResolve,
  checkPlaceholders,
  checkConsent,
]

export function runCrossChecks(input: CrossCheckInput): void {
  for (const check of CROSS_CHECKS) check(input)
}
