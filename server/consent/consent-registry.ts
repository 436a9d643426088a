/**
 * The consent versions this server knows: those of every snapshot it has served since it started
 * (registered in the store as each snapshot goes live), and those any server recorded before (read
 * back from the store). A record may only claim one of these (docs/decisions/0800).
 */
import { snapshotConsentVersions } from '../../engine/consent/consent-for-page'
import type { ConsentShown } from '../../engine/consent/consent-text'
import type { Snapshot } from '../../engine/snapshot/types'
import type { SnapshotStore } from '../content/snapshot-store'
import { log } from '../log'
import { findConsentVersion, registerConsentVersions } from '../store/consent-store'
import type { Db } from '../store/db'
import { sha256Hex } from './consent-versions'

export interface KnownVersion {
  consentId: string
  template: string
}

export class ConsentRegistry {
  readonly #known = new Map<string, KnownVersion>()
  /** Versions not yet stored, oldest snapshot first. */
  readonly #unsaved: { versions: ConsentShown[]; snapshotId: string }[] = []
  #persisted: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Db,
    snapshots: SnapshotStore,
  ) {
    this.register(snapshots.current)
    snapshots.onChange((s) => this.register(s))
  }

  /** Serves a snapshot's versions from now on; the store learns them before any record uses them. */
  register(snapshot: Snapshot): void {
    const versions = snapshotConsentVersions(snapshot)
    for (const v of versions) this.#known.set(v.version, { consentId: v.id, template: v.template })
    this.#unsaved.push({ versions, snapshotId: snapshot.id })
    this.#save()
  }

  /** Stores what is not stored yet, after any write already under way; a failure is tried again next time. */
  #save(): Promise<void> {
    this.#persisted = this.#persisted
      .catch(() => {})
      .then(async () => {
        while (this.#unsaved.length) {
          const { versions, snapshotId } = this.#unsaved[0]
          try {
            await registerConsentVersions(this.db, versions, snapshotId, sha256Hex)
          } catch (e) {
            log('error', 'consent versions not registered', {
              snapshot: snapshotId,
              error: (e as Error).message,
            })
            throw e
          }
          this.#unsaved.shift()
        }
      })
    // Nobody may be waiting yet: a failure is logged above and reported to the next lookup.
    this.#persisted.catch(() => {})
    return this.#persisted
  }

  /** A version served by this server or recorded by any before; null when none ever served it. */
  async find(version: string): Promise<KnownVersion | null> {
    const mine = this.#known.get(version)
    if (mine) {
      // Records reference their version row: it is stored first (a failure is a 500; the browser retries).
      await this.#save()
      return mine
    }
    const stored = await findConsentVersion(this.db, version)
    return stored && { consentId: stored.consent_id, template: stored.template }
  }
}
