import type { BranchChecks } from '../../schemas/generated/cc-answers/branches'

/** What the publish dialog says about the checks, given the last attempt's refusal (if any). */
export type PublishReadiness =
  | { state: 'pass'; text: string }
  | { state: 'conflicts'; text: string }
  | { state: 'problems'; text: string }
  | { state: 'refused' }
  | { state: 'unknown' }

/**
 * One statement about whether publishing can go ahead. "All checks pass" only when the checks found
 * nothing (no errors and no conflicting fields) and the last attempt was not refused: a refusal is the
 * newer truth and speaks for itself beside it.
 */
export function publishReadiness(checks: BranchChecks | null, refused: boolean): PublishReadiness {
  if (refused) return { state: 'refused' }
  if (!checks) return { state: 'unknown' }
  const conflicts = checks.conflicts ?? []
  if (conflicts.length) {
    const where = conflicts.map((c) => `${c.path} (${c.pointers.join(', ')})`).join('; ')
    return {
      state: 'conflicts',
      text: `Live changed the same fields as this branch: ${where}. Use Update from live to choose, then publish.`,
    }
  }
  if (!checks.ok)
    return { state: 'problems', text: `Checks found ${checks.errors.length} problem(s): fix them first.` }
  return { state: 'pass', text: 'All checks pass.' }
}
