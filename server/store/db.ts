/** The one SQL interface the store uses, over PGlite or a PostgreSQL pool. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * PGlite only: a gzipped tarball of the data folder taken between transactions, after a checkpoint
   * (docs/decisions/0310).
   */
  dumpDataDir?(): Promise<Blob>
  close(): Promise<void>
}
