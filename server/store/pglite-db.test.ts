import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openPglite } from './pglite-db'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('PGlite in a data folder', () => {
  it('creates a new folder (in a child process), runs with our settings, and keeps its data', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'fw-pglite-'))
    dirs.push(parent)
    const dir = join(parent, 'data') // not there yet
    const db = await openPglite(dir)
    try {
      const r = await db.query<{ shared_buffers: string }>('SHOW shared_buffers')
      expect(r.rows[0].shared_buffers).toBe('16MB')
      await db.exec("CREATE TABLE kept (v text); INSERT INTO kept VALUES ('there')")
    } finally {
      await db.close()
    }
    const again = await openPglite(dir)
    try {
      const r = await again.query<{ v: string }>('SELECT v FROM kept')
      expect(r.rows).toEqual([{ v: 'there' }])
    } finally {
      await again.close()
    }
  })
})
