/**
 * Where a page's JavaScript comes from (docs/decisions/0521): measures a page the way the size test
 * does (tools/size-budget.ts: every same-origin script Chromium downloads, idle-time code included,
 * gzip -9) and lists, per downloaded chunk, the source modules in it by the bytes they left in that
 * chunk (from its source map). A module's gzip figure is its code compressed alone: larger than its
 * share of the chunk's gzip, but the order is what matters.
 *
 *   FW_SOURCEMAP=1 NODE_ENV=production npx vike build
 *   PORT=4601 DATA_DIR=$(mktemp -d) NODE_ENV=production node --import tsx server/index.ts &
 *   npx tsx tools/size-breakdown.ts [template=funnel] [port=4601] [modules per chunk=20]
 */
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchBrowser, routeThirdParties } from '../tests/e2e/browser'
import { kb, measurePage, pageUrlFor } from './size-budget'

const ROOT = resolve(import.meta.dirname, '..')
const [template = 'funnel', port = '4601', top = '20'] = process.argv.slice(2)

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** The values of one source-map segment (base64 VLQ). */
function segment(text: string): number[] {
  const out: number[] = []
  let value = 0
  let shift = 0
  for (const c of text) {
    const digit = BASE64.indexOf(c)
    value += (digit & 31) << shift
    if (digit & 32) shift += 5
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1)
      value = 0
      shift = 0
    }
  }
  return out
}

/** Generated code of a chunk grouped by the source each piece maps to. */
function codeBySource(code: string, map: { sources: string[]; mappings: string }): Map<string, string> {
  const lines = code.split('\n')
  const bySource = new Map<string, string>()
  let source = 0
  map.mappings.split(';').forEach((mapped, lineIndex) => {
    const line = lines[lineIndex] ?? ''
    let column = 0
    const points: [number, number][] = []
    for (const part of mapped ? mapped.split(',') : []) {
      const v = segment(part)
      column += v[0]
      if (v.length > 1) source += v[1]
      points.push([column, v.length > 1 ? source : -1])
    }
    points.forEach(([start, src], i) => {
      if (src < 0) return
      const name = map.sources[src]
      bySource.set(name, (bySource.get(name) ?? '') + line.slice(start, points[i + 1]?.[0] ?? line.length))
    })
  })
  return bySource
}

const url = pageUrlFor([template], `http://{brand}.localhost:${port}`, ROOT)
if (!url) throw new Error(`no page uses the template ${template}`)
const browser = await launchBrowser()
try {
  const context = await browser.newContext()
  await routeThirdParties(context)
  const sizes = await measurePage(context, url)
  console.log(`${url}: JS ${kb(sizes.jsGzip)}, CSS ${kb(sizes.cssGzip)} (gzip -9)`)
  for (const asset of sizes.assets) {
    console.log(`${kb(asset.gzip).padStart(9)}  ${asset.url}`)
    const file = join(ROOT, 'dist', 'client', asset.url.split('?')[0])
    if (asset.kind !== 'js' || !existsSync(`${file}.map`)) continue
    const rows = [
      ...codeBySource(readFileSync(file, 'utf8'), JSON.parse(readFileSync(`${file}.map`, 'utf8'))),
    ]
      .map(([source, code]) => ({ source, raw: code.length, gzip: gzipSync(code, { level: 9 }).length }))
      .sort((a, b) => b.gzip - a.gzip)
    for (const row of rows.slice(0, Number(top)))
      console.log(
        `${kb(row.gzip).padStart(18)} ${kb(row.raw).padStart(9)} raw  ${row.source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, '')}`,
      )
  }
} finally {
  await browser.close()
}
