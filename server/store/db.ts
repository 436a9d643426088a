/** The one SQL interface the store uses, over PGlite or a PostgreSQL pool. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
}

/** A store dump: the archive, and how long it held the writer (queries and transactions queued). */
export interface StoreArchive {
  archive: Buffer
  writerHeldMs: number
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * PGlite only: a gzipped tarball of the data folder's PostgreSQL files as they stood between two
   * transactions, after a checkpoint (docs/decisions/0310, 0724), and how long writers waited for it.
   */
  dumpDataDir?(): Promise<StoreArchive>
  close(): Promise<void>
}
