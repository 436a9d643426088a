import { describe, expect, it } from 'vitest'
import {
  type Actor,
  assertCan,
  can,
  ForbiddenError,
  STAFF_ACTIONS,
  STAFF_ROLES,
  type StaffAction,
  type StaffRole,
} from './permissions'

// The matrix of CONTROL-CENTER §1.2, written out in full: role → actions allowed without a target.
const MATRIX: Record<StaffRole, StaffAction[]> = {
  viewer: ['browse'],
  editor: ['browse', 'branch.create', 'branch.edit', 'run.manage'],
  publisher: [
    'browse',
    'branch.create',
    'branch.edit',
    'run.manage',
    'branch.archive',
    'branch.approve',
    'publish',
    'audit.read',
  ],
  admin: [...STAFF_ACTIONS],
}

const user = (role: string, id = `${role}-1`): Actor => ({ id, role })

describe('can(user, action, target)', () => {
  for (const role of STAFF_ROLES)
    for (const action of STAFF_ACTIONS)
      it(`${role} ${MATRIX[role].includes(action) ? 'may' : 'may not'} ${action}`, () => {
        expect(can(user(role), action)).toBe(MATRIX[role].includes(action))
      })

  it('archive: viewers and editors only their own branches, publishers and admins any', () => {
    for (const role of STAFF_ROLES) {
      expect(can(user(role, 'u1'), 'branch.archive', { branchCreatedBy: 'u1' })).toBe(true)
      expect(can(user(role, 'u1'), 'branch.archive', { branchCreatedBy: 'u2' })).toBe(
        role === 'publisher' || role === 'admin',
      )
    }
  })

  it('approve: not one’s own last commit when approval is required', () => {
    for (const role of ['publisher', 'admin']) {
      expect(can(user(role, 'u1'), 'branch.approve', { lastCommitBy: 'u1', requireApproval: true })).toBe(
        false,
      )
      expect(can(user(role, 'u1'), 'branch.approve', { lastCommitBy: 'u1', requireApproval: false })).toBe(
        true,
      )
      expect(can(user(role, 'u1'), 'branch.approve', { lastCommitBy: 'u2', requireApproval: true })).toBe(
        true,
      )
    }
    expect(can(user('editor', 'u1'), 'branch.approve', { lastCommitBy: 'u2', requireApproval: true })).toBe(
      false,
    )
  })

  it('protected paths (brands, site.json) only for admins', () => {
    for (const paths of [
      ['definitions/brands/m10.json'],
      ['definitions/pages/a.json', 'definitions/site.json'],
    ])
      for (const role of STAFF_ROLES) expect(can(user(role), 'branch.edit', { paths })).toBe(role === 'admin')
    for (const role of STAFF_ROLES)
      expect(
        can(user(role), 'branch.edit', {
          paths: ['definitions/pages/grocery.json', 'definitions/site.json.bak'],
        }),
      ).toBe(role !== 'viewer')
  })

  it('signed out, disabled or an unknown role may do nothing', () => {
    for (const action of STAFF_ACTIONS) {
      expect(can(null, action)).toBe(false)
      expect(can(undefined, action)).toBe(false)
      expect(can({ id: 'x', role: 'admin', disabled: true }, action)).toBe(false)
      expect(can(user('owner'), action)).toBe(false)
      expect(can(user('Admin'), action)).toBe(false)
    }
  })

  it('assertCan answers 401 when signed out and 403 naming the role otherwise', () => {
    expect(() => assertCan(user('editor'), 'publish')).toThrow('role "editor" may not publish')
    try {
      assertCan(null, 'browse')
    } catch (e) {
      expect(e).toBeInstanceOf(ForbiddenError)
      expect((e as ForbiddenError).status).toBe(401)
    }
    try {
      assertCan(user('viewer'), 'branch.edit')
    } catch (e) {
      expect((e as ForbiddenError).status).toBe(403)
    }
    expect(() => assertCan(user('publisher'), 'publish')).not.toThrow()
  })
})
