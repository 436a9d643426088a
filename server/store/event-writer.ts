import type { Db } from './db'
import type { EventRow } from './event-rows'
import { insertEvents } from './event-store'

interface Pending {
  rows: readonly EventRow[]
  resolve: () => void
  reject: (e: unknown) => void
}

/** Most rows per INSERT; larger bursts go in several transactions back to back. */
const MAX_ROWS_PER_WRITE = 1_000

/**
 * Group commit: requests that arrive while a write is in progress are written together in the next
 * one. `write()` resolves only after the transaction holding its rows has committed, so an
 * acknowledged event is on disk. When a shared transaction fails, each request in it is written
 * again on its own: one request's unstorable row fails only that request, never its neighbours'.
 */
export class EventWriter {
  private queue: Pending[] = []
  private running: Promise<void> | null = null
  /** Rows received and not yet committed or refused (reported as the event queue depth). */
  depth = 0

  constructor(private readonly db: Db) {}

  write(rows: readonly EventRow[]): Promise<void> {
    this.depth += rows.length
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ rows, resolve, reject })
      this.kick()
    }).finally(() => {
      this.depth -= rows.length
    })
  }

  private kick(): void {
    if (this.running || this.queue.length === 0) return
    // Start on the next turn of the event loop, not now: PGlite runs a transaction without
    // yielding to I/O, so starting at once would write each request alone while the others wait
    // unread on their sockets. One setImmediate lets every request already received join the batch.
    this.running = new Promise<void>((r) => setImmediate(r))
      .then(() => this.drain())
      .finally(() => {
        this.running = null
        // A write that arrived after the last batch was taken but before this point.
        this.kick()
      })
  }

  /** Resolves when every write asked for so far has finished. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch: Pending[] = []
      let count = 0
      while (this.queue.length && (count === 0 || count + this.queue[0].rows.length <= MAX_ROWS_PER_WRITE)) {
        const p = this.queue.shift()!
        batch.push(p)
        count += p.rows.length
      }
      try {
        await this.commit(batch.flatMap((p) => p.rows))
        for (const p of batch) p.resolve()
      } catch (e) {
        if (batch.length === 1) batch[0].reject(e)
        else await this.oneByOne(batch)
      }
    }
  }

  /** After a shared failure: each request alone, so only the one at fault hears of it. */
  private async oneByOne(batch: readonly Pending[]): Promise<void> {
    for (const p of batch) {
      try {
        await this.commit(p.rows)
        p.resolve()
      } catch (e) {
        p.reject(e)
      }
    }
  }

  private commit(rows: readonly EventRow[]): Promise<number> {
    return this.db.transaction((tx) => insertEvents(tx, rows))
  }
}
