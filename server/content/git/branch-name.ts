/** Staff branch names (CONTROL-CENTER §1.4): lower-case letters, digits and dashes; `live` is the published content. */
export const BRANCH_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/
export const LIVE_BRANCH = 'live'
export const PUBLISHED_REF = 'refs/heads/published'
export const STAFF_BRANCH_PREFIX = 'refs/heads/cc/'

export class BadBranchNameError extends Error {
  readonly status = 400
}

/** Throws a clear error unless `name` may name a staff branch. */
export function checkBranchName(name: string): void {
  if (name === LIVE_BRANCH)
    throw new BadBranchNameError(`branch name "live" is reserved for the published content`)
  if (!BRANCH_NAME.test(name))
    throw new BadBranchNameError(
      `branch name "${name}" must be 1–63 lower-case letters, digits or dashes, starting with a letter or digit`,
    )
}

/** The git ref of a staff branch; `live` is the published ref. */
export function branchRef(name: string): string {
  if (name === LIVE_BRANCH) return PUBLISHED_REF
  checkBranchName(name)
  return `${STAFF_BRANCH_PREFIX}${name}`
}
