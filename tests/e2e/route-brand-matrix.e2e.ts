/**
 * The route → brands matrix of docs/decisions/0100-route-brand-matrix.md, asserted through the real
 * production server: every route answers 200 on each brand listed and 404 on every other brand.
 * Requests go through node:http with a Host header (Node's fetch drops a custom Host).
 */

import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import { checkRouteMatrix, readRouteMatrix } from '../../server/content/route-matrix'
import { SnapshotStore } from '../../server/content/snapshot-store'

const port = inject('port')
const root = join(import.meta.dirname, '..', '..')
const ALL_BRANDS = ['m10', 'bh', 'ac', 'emily', 'mpa', 'gs', 'tqg', 'ps', 'ccc']

/** Concrete paths for a route pattern: without and with the optional step, a token, a real article. */
function pathsFor(route: string): string[] {
  const withParams = route
    .replace('{token}', 'tok3n-abc123def456')
    .replace('{slug...}', 'aetna/medicare-advantage-what-to-check')
  if (withParams.endsWith('/{step?}')) {
    const base = withParams.slice(0, -'/{step?}'.length)
    return [base, `${base}/zip`]
  }
  return [withParams]
}

function status(host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'GET',
        headers: { host: `${host}:${port}`, accept: 'text/html' },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

const matrix = readRouteMatrix(root) ?? []

describe('route → brands matrix (docs/decisions/0100)', () => {
  it('the record lists every route of spec point 2', () => {
    const routes = matrix.map((r) => r.route)
    expect(routes.length).toBeGreaterThan(60)
    for (const r of [
      '/',
      '/privacy',
      '/tos',
      '/reviews/{slug...}',
      '/quiz/otc/{step?}',
      '/get-yours-csnp-es',
    ])
      expect(routes).toContain(r)
  })

  it('every route a page serves has its row with the same brands, and every row is served', () => {
    const result = SnapshotStore.build(join(root, 'definitions'), root, root)
    if (!result.ok) throw new Error(result.errors.map(formatDefinitionError).join('\n'))
    expect(checkRouteMatrix(result.snapshot, root).map(formatDefinitionError)).toEqual([])
  })

  it.each(matrix.map((r) => [r.route, r] as const))('%s', async (_, row) => {
    for (const path of pathsFor(row.route)) {
      const got: Record<string, number> = {}
      const codes = await Promise.all(ALL_BRANDS.map((b) => status(`${b}.localhost`, path)))
      ALL_BRANDS.forEach((b, i) => {
        got[b] = codes[i]
      })
      const want = Object.fromEntries(ALL_BRANDS.map((b) => [b, row.brands.includes(b) ? 200 : 404]))
      expect({ path, got }).toEqual({ path, got: want })
    }
  })

  it('answers 404 with the spec message for an unknown review slug', async () => {
    expect(await status('mpa.localhost', '/reviews/no-such-carrier/article')).toBe(404)
  })
})
