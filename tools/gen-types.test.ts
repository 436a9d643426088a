import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateTypes } from './gen-types'

describe('generated schema types', { timeout: 60_000 }, () => {
  it('are up to date with the schemas (run npm run gen:types)', async () => {
    const generated = await generateTypes()
    expect(generated.size).toBeGreaterThan(0)
    for (const [name, ts] of generated) {
      const committed = readFileSync(join(import.meta.dirname, '..', 'schemas', 'generated', name), 'utf8')
      expect(committed, `schemas/generated/${name} is stale`).toBe(ts)
    }
  })
})
