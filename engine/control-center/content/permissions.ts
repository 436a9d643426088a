/**
 * Who may do what in the control center (CONTROL-CENTER §1.2, docs/decisions/0602). One function,
 * enforced on the server; the browser uses the same one only to hide controls.
 */

export const STAFF_ROLES = ['viewer', 'editor', 'publisher', 'admin'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

export const STAFF_ACTIONS = [
  /** Sign in; browse every screen; open previews; see diffs, history, results, runs. */
  'browse',
  /** Create a branch. */
  'branch.create',
  /** Edit, autosave drafts and commit on an open branch; upload images; merge live in; request review. */
  'branch.edit',
  /** Start or cancel content-factory runs; turn output into an article. */
  'run.manage',
  /** Archive a branch (own for viewers and editors, any for publishers and admins). */
  'branch.archive',
  /** Approve a branch (not one's own last commit when approval is required). */
  'branch.approve',
  /** Publish, schedule a publish, roll back, emergency-pause a running experiment. */
  'publish',
  /** Publish past a gate that ran out of its time budget, with an audited reason (CONTROL-CENTER §7). */
  'gates.override',
  /** Manage staff users and roles. */
  'staff.manage',
  /** Read the full audit log. */
  'audit.read',
  /** Export or erase a person's data on their request (docs/decisions/0811). */
  'leads.manage',
] as const
export type StaffAction = (typeof STAFF_ACTIONS)[number]

export interface Actor {
  id: string
  role: string
  disabled?: boolean
}

export interface ActionTarget {
  /** Who created the branch (archive). */
  branchCreatedBy?: string
  /** Who made the branch's last commit (approve). */
  lastCommitBy?: string
  /** CC_REQUIRE_APPROVAL: approvers may not approve their own last commit. */
  requireApproval?: boolean
  /** Files being written (edit): protected paths need an admin. */
  paths?: readonly string[]
}

/** Definition files only admins may change: brands and the site configuration. */
export function isProtectedPath(path: string): boolean {
  return path.startsWith('definitions/brands/') || path === 'definitions/site.json'
}

const RANK: Record<StaffRole, number> = { viewer: 0, editor: 1, publisher: 2, admin: 3 }

export function isStaffRole(role: string): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role)
}

/** Whether `user` may do `action` on `target`. Unknown roles and disabled users may do nothing. */
export function can(user: Actor | null | undefined, action: StaffAction, target: ActionTarget = {}): boolean {
  if (!user || user.disabled || !isStaffRole(user.role)) return false
  const rank = RANK[user.role]
  switch (action) {
    case 'browse':
      return true
    case 'branch.create':
    case 'run.manage':
      return rank >= RANK.editor
    case 'branch.edit':
      if (rank < RANK.editor) return false
      return !(target.paths ?? []).some(isProtectedPath) || rank >= RANK.admin
    case 'branch.archive':
      return (
        rank >= RANK.publisher || (target.branchCreatedBy !== undefined && target.branchCreatedBy === user.id)
      )
    case 'branch.approve':
      if (rank < RANK.publisher) return false
      return !(target.requireApproval && target.lastCommitBy === user.id)
    case 'publish':
    case 'audit.read':
      return rank >= RANK.publisher
    case 'gates.override':
    case 'staff.manage':
    case 'leads.manage':
      return rank >= RANK.admin
  }
}

/** Thrown by the server when `can` says no: 403 naming the role and the action, 401 when signed out. */
export class ForbiddenError extends Error {
  readonly status: 401 | 403
  constructor(user: Actor | null | undefined, action: StaffAction) {
    super(user ? `role "${user.role}" may not ${action}` : `sign in to ${action}`)
    this.status = user ? 403 : 401
  }
}

export function assertCan(user: Actor | null | undefined, action: StaffAction, target?: ActionTarget): void {
  if (!can(user, action, target)) throw new ForbiddenError(user, action)
}
