import type pg from 'pg'
import { CONTENT_CHANNEL } from '../control-center/services/publication-intents'
import type { Publisher } from '../control-center/services/publisher'
import { log } from '../log'
import type { Db } from '../store/db'
import { parseDatabaseUrl, pgConnection } from '../store/postgres-db'
import type { LiveContent } from './live-content'

/** Every instance compares its live commit with the latest publication this often (CONTROL-CENTER §2.7). */
export const CONTENT_RECONCILE_MS = 30_000
/** Due scheduled publishes are looked for this often (CONTROL-CENTER §2.6). */
export const SCHEDULE_POLL_MS = 15_000
/** Reconnect delays of the LISTEN connection: doubling from the first to the last. */
const LISTEN_BACKOFF_MS = [500, 30_000] as const

export interface FleetOptions {
  live: LiveContent
  publisher: Publisher
  db: Db
  /** PostgreSQL URL for the dedicated LISTEN connection; null (PGlite) listens to nothing. */
  databaseUrl: string | null
  reconcileMs?: number
  scheduleMs?: number
  /** Off in tests that check the reconcile loop alone. */
  listen?: boolean
}

/**
 * Keeps this instance's live content in step with the others: a dedicated pg client LISTENs for
 * publications and a reconcile loop heals missed notifications; a scheduler fires due publishes.
 */
export class ContentFleet {
  #client: pg.Client | null = null
  #timers: NodeJS.Timeout[] = []
  #stopped = false
  #refreshing: Promise<unknown> = Promise.resolve()
  notifications = 0
  /** Date.now() of the last reconcile that finished, or of the start before the first (metrics: the lag). */
  reconciledAt: number | null = null

  constructor(readonly opts: FleetOptions) {}

  start(): void {
    const { reconcileMs = CONTENT_RECONCILE_MS, scheduleMs = SCHEDULE_POLL_MS } = this.opts
    this.reconciledAt = Date.now()
    if (this.opts.databaseUrl && this.opts.listen !== false) void this.#listen(0)
    void this.reconcile().catch((e) => log('warn', 'content reconcile failed', { error: String(e) }))
    this.#timers.push(
      setInterval(
        () =>
          void this.reconcile().catch((e) => log('warn', 'content reconcile failed', { error: String(e) })),
        reconcileMs,
      ),
      setInterval(
        () =>
          void this.opts.publisher
            .runDueSchedules()
            .catch((e) => log('warn', 'scheduled publishes failed', { error: String(e) })),
        scheduleMs,
      ),
    )
    for (const t of this.#timers) t.unref()
  }

  /** Loads the published content again, one refresh at a time; resolves whether it worked. */
  refresh(): Promise<boolean> {
    const refreshed = this.#refreshing
      .then(() => this.opts.live.refresh())
      .then(
        () => true,
        (e) => {
          log('warn', 'content refresh failed', { error: String(e) })
          return false
        },
      )
    this.#refreshing = refreshed
    return refreshed
  }

  /**
   * Settles any publish a crash left half done (docs/decisions/0612), then refreshes when the latest
   * publication is not the commit being served.
   */
  async reconcile(): Promise<boolean> {
    await this.opts.publisher
      .settleInterrupted()
      .catch((e) => log('warn', 'settling an interrupted publish failed', { error: String(e) }))
    const r = await this.opts.db.query<{ new_commit: string }>(
      'SELECT new_commit FROM content_publications ORDER BY id DESC LIMIT 1',
    )
    const latest = r.rows[0]?.new_commit
    // A commit served at start runs the gates once the data store is open (docs/decisions/0610).
    await this.opts.live.verify()
    // A publication of another instance, or a push that moved the ref (checked before it serves).
    if ((!latest || latest === this.opts.live.commit) && !(await this.opts.live.publishedMoved())) {
      this.reconciledAt = Date.now()
      return false
    }
    if (await this.refresh()) this.reconciledAt = Date.now()
    return true
  }

  async #listen(attempt: number): Promise<void> {
    if (this.#stopped || !this.opts.databaseUrl) return
    const { connectionString } = parseDatabaseUrl(this.opts.databaseUrl)
    const { default: pg } = await import('pg')
    if (this.#stopped) return
    // Named, so an operator (or a test) can tell this instance's LISTEN connection in pg_stat_activity.
    const client = new pg.Client({
      ...pgConnection(connectionString),
      application_name: `funnelworks-listen-${process.pid}`,
    })
    const retry = () => {
      if (this.#client !== client) return
      this.#client = null
      client.end().catch(() => {})
      if (this.#stopped) return
      const delay = Math.min(LISTEN_BACKOFF_MS[0] * 2 ** attempt, LISTEN_BACKOFF_MS[1])
      setTimeout(() => void this.#listen(attempt + 1), delay).unref()
    }
    this.#client = client
    client.on('error', retry)
    client.on('end', retry)
    client.on('notification', (n) => {
      if (n.channel !== CONTENT_CHANNEL) return
      this.notifications++
      void this.refresh()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${CONTENT_CHANNEL}`)
      attempt = 0
      // Anything published while we were not listening.
      void this.reconcile().catch(() => {})
    } catch (e) {
      log('warn', 'content LISTEN connection failed; retrying', { error: String(e) })
      retry()
    }
  }

  /** Drops the LISTEN connection (tests: a cut connection must reconnect). */
  cutListenConnection(): void {
    this.#client?.end().catch(() => {})
  }

  async stop(): Promise<void> {
    this.#stopped = true
    for (const t of this.#timers) clearInterval(t)
    const c = this.#client
    this.#client = null
    await c?.end().catch(() => {})
    await this.#refreshing
  }
}
