import { PGLITE_SETTINGS } from '../store/pglite-db'

export interface StoreDumpFacts {
  schemaVersion: number
  rowCounts: Record<string, number>
  /** The commit of the latest content publication, or null when nothing was published. */
  latestPublication: string | null
}

/**
 * Opens the dump in memory and reads what the manifest records: so the facts are the dump's own, and
 * a dump that does not open fails the backup instead of a later restore.
 */
export async function inspectStoreDump(tar: Buffer): Promise<StoreDumpFacts> {
  const { PGlite } = await import('@electric-sql/pglite')
  const pg = await PGlite.create({
    loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
  })
  try {
    const version = await pg.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')
    const tables = await pg.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    )
    const rowCounts: Record<string, number> = {}
    for (const { name } of tables.rows) {
      const r = await pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${name.replaceAll('"', '""')}"`,
      )
      rowCounts[name] = r.rows[0].n
    }
    const latest =
      'content_publications' in rowCounts
        ? await pg.query<{ c: string }>(
            'SELECT new_commit AS c FROM content_publications ORDER BY id DESC LIMIT 1',
          )
        : { rows: [] }
    return {
      schemaVersion: version.rows[0]?.v ?? 0,
      rowCounts,
      latestPublication: latest.rows[0]?.c ?? null,
    }
  } finally {
    await pg.close()
  }
}
