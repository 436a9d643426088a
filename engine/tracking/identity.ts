/** What the browser has stored about the visitor's identity. */
export interface StoredIdentity {
  userId: string | null
  anonymousId: string | null
  /** The spec's anonIdLinked flag. */
  anonIdLinked: boolean
}

export interface IdentityPlan {
  userId: string
  anonymousId: string
  anonIdLinked: boolean
  /** Spec point 4: emit anonLink with oldUserId once for an anonymousId stored before linking. */
  anonLink: { oldUserId: string } | null
}

/**
 * Anonymous-id linking (spec point 4): a stored anonymousId whose anonIdLinked is not true produces
 * one anonLink event carrying it as oldUserId, and the flag becomes true. An anonymousId created now
 * has nothing to link, so it starts linked.
 */
export function planIdentity(stored: StoredIdentity, newId: () => string): IdentityPlan {
  const userId = stored.userId ?? newId()
  if (stored.anonymousId) {
    const anonLink = stored.anonIdLinked ? null : { oldUserId: stored.anonymousId }
    return { userId, anonymousId: stored.anonymousId, anonIdLinked: true, anonLink }
  }
  return { userId, anonymousId: newId(), anonIdLinked: true, anonLink: null }
}
