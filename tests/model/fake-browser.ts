/**
 * The funnel's injected dependencies as a test sees them: a history with entries, a Map for
 * storage and a log of every emitted event. Nothing of the machine is replaced.
 */
import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FunnelDeps } from '../../engine/funnel/funnel-deps'
import type { DemandCheckResult, FormValues } from '../../engine/runtime-contracts'

export type Emitted =
  | { kind: 'pageView'; page: { name: string; template: string; stepName?: string } }
  | { kind: 'track'; event: string; properties: Record<string, unknown> }

export interface HistoryEntry {
  url: string
  depth: number
}

export class FakeBrowser {
  entries: HistoryEntry[]
  index = 0
  emitted: Emitted[] = []
  store = new Map<string, FormValues>()
  left: string | null = null
  replaced = 0
  pushed = 0
  changes: (keyof FormValues)[][] = []
  /** Called when back() pops an entry (the test forwards it to the actor as POPSTATE). */
  onPop: (entry: HistoryEntry) => void = () => {}

  constructor(
    startUrl: string,
    readonly demand: DemandCheckResult | null = { bid: 25, isLowBid: false },
  ) {
    this.entries = [{ url: startUrl, depth: 0 }]
  }

  get url(): string {
    return this.entries[this.index].url
  }

  readonly storage: BucketStorage = {
    read: (key) => ({ ...(this.store.get(key) ?? {}) }),
    write: (key, values) => void this.store.set(key, { ...values }),
  }

  deps(): FunnelDeps {
    return {
      emitter: {
        track: (event, properties = {}) => this.emitted.push({ kind: 'track', event, properties }),
        pageView: (page) => this.emitted.push({ kind: 'pageView', page }),
      },
      demandCheck: async () => this.demand,
      storage: this.storage,
      onValuesChanged: (_values, changed) => this.changes.push([...changed]),
      navigation: {
        replace: (url, depth) => {
          this.entries[this.index] = { url, depth }
          this.replaced++
        },
        push: (url, depth) => {
          this.entries = [...this.entries.slice(0, this.index + 1), { url, depth }]
          this.index++
          this.pushed++
        },
        back: () => this.back(),
        leave: (url) => {
          this.left = url
        },
      },
    }
  }

  /** The browser's back button. */
  back(): void {
    if (this.index === 0) return
    this.index--
    this.onPop(this.entries[this.index])
  }

  get historyLength(): number {
    return this.entries.length
  }
}
