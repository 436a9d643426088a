/**
 * Preview grants (CONTROL-CENTER §2.3, docs/decisions/0601): a signed, short-lived token that lets
 * a brand host render a branch (and, when asked, one staff member's unsaved drafts) for whoever
 * holds it, e.g. the control center's preview iframe on another host. Stateless: an HMAC over
 * {branch, user, drafts, expiry}; minting is audited. Without a valid grant `?branch` is ignored.
 * A grant lives only as long as its user: `check` asks the store whether the user still exists and
 * may sign in, at most PREVIEW_GRANT_USER_RECHECK_MS ago on this instance (docs/decisions/0922).
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { PREVIEW_GRANT_TTL_MS } from '../../../engine/constants'
import { BRANCH_NAME, LIVE_BRANCH } from '../../content/git/branch-name'
import { signedToken, verifiedPayload } from '../../http/signed-token'

const PREVIEW_LABEL = 'fw-preview'

export interface PreviewGrant {
  branch: string
  userId: string
  drafts: boolean
  /** Expiry, epoch ms. */
  expiresAt: number
}

/**
 * How long an instance trusts its last answer to "does this grant's user still exist, enabled?":
 * a disabled or deleted user's preview links stop on every instance within this (issue 27: 5 s).
 */
export const PREVIEW_GRANT_USER_RECHECK_MS = 2_000
/** Users whose answer is remembered at once (a bound, not a tuning knob). */
const USER_CACHE_SIZE = 1_000

/** Whether a staff user exists and is neither disabled nor locked (the store answers). */
export type StaffUserActive = (userId: string) => Promise<boolean>

export class PreviewGrants {
  readonly #users = new Map<string, { active: Promise<boolean>; until: number }>()

  constructor(
    readonly secret: string,
    /** Without it (tests of signing only) `check` trusts every signed grant. */
    readonly userActive?: StaffUserActive,
  ) {}

  /** The secret from PREVIEW_SECRET, else one generated once into `file` (mode 600). */
  static fromConfig(secret: string | null, file: string, userActive?: StaffUserActive): PreviewGrants {
    if (secret) return new PreviewGrants(secret, userActive)
    try {
      return new PreviewGrants(readFileSync(file, 'utf8').trim(), userActive)
    } catch {
      const fresh = randomBytes(32).toString('hex')
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' })
      return new PreviewGrants(readFileSync(file, 'utf8').trim(), userActive)
    }
  }

  /**
   * The grant a token carries when it is valid and its user still exists and is enabled; null
   * otherwise. What previews and unpublished images use. Never throws.
   */
  async check(token: string | undefined | null, now = Date.now()): Promise<PreviewGrant | null> {
    const grant = this.verify(token, now)
    if (!grant || !this.userActive) return grant
    let known = this.#users.get(grant.userId)
    if (!known || known.until <= now) {
      this.#users.delete(grant.userId)
      known = {
        active: this.userActive(grant.userId).catch(() => false),
        until: now + PREVIEW_GRANT_USER_RECHECK_MS,
      }
      this.#users.set(grant.userId, known)
      if (this.#users.size > USER_CACHE_SIZE) this.#users.delete(this.#users.keys().next().value!)
    }
    return (await known.active) ? grant : null
  }

  mint(grant: Omit<PreviewGrant, 'expiresAt'>, now = Date.now()): { token: string; expiresAt: number } {
    const expiresAt = now + PREVIEW_GRANT_TTL_MS
    const payload = Buffer.from(
      JSON.stringify({ b: grant.branch, u: grant.userId, d: grant.drafts ? 1 : 0, e: expiresAt }),
    ).toString('base64url')
    return { token: signedToken(this.secret, PREVIEW_LABEL, payload), expiresAt }
  }

  /** The grant a token carries, or null when it is forged, malformed or expired. Never throws. */
  verify(token: string | undefined | null, now = Date.now()): PreviewGrant | null {
    const payload = verifiedPayload(this.secret, PREVIEW_LABEL, token)
    if (payload === null) return null
    try {
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
      const branch = p.b
      if (typeof branch !== 'string' || !(branch === LIVE_BRANCH || BRANCH_NAME.test(branch))) return null
      if (typeof p.u !== 'string' || typeof p.e !== 'number' || p.e <= now) return null
      return { branch, userId: p.u, drafts: p.d === 1, expiresAt: p.e }
    } catch {
      return null
    }
  }
}
