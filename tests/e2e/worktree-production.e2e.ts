/**
 * `CONTENT_SOURCE=worktree` under the production server (`npm start`) follows edits of the definitions
 * folder (issue 37): a saved change is served without a restart, a broken one is refused and the last
 * valid version keeps serving, as under `npm run dev`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

const OLD_HEADLINE = 'Help with groceries from your Medicare plan'

let server: ServerProcess
const tmp = mkdtempSync(join(tmpdir(), 'fw-worktree-prod-'))
const definitions = join(tmp, 'definitions')
const grocery = join(definitions, 'pages', 'grocery.json')

/** Page grocery on brand m10, as a visitor gets it (Host names the brand; Node's fetch drops it). */
const page = () =>
  new Promise<{ status: number; html: string }>((resolve, reject) => {
    request(
      { host: '127.0.0.1', port: server.port, path: '/grocery', headers: { host: 'm10.localhost' } },
      (res) => {
        let html = ''
        res.setEncoding('utf8')
        res.on('data', (c) => {
          html += c
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, html }))
      },
    )
      .on('error', reject)
      .end()
  })

beforeAll(async () => {
  cpSync(join(PROJECT_ROOT, 'definitions'), definitions, { recursive: true })
  server = await startServerProcess({ CONTENT_SOURCE: 'worktree', DEFINITIONS_DIR: definitions })
}, 180_000)
afterAll(async () => {
  await server?.stop()
  rmSync(tmp, { recursive: true, force: true })
})

describe('CONTENT_SOURCE=worktree in production', () => {
  it('serves an edit of the definitions without a restart; a broken edit keeps the last valid one', {
    timeout: 120_000,
  }, async () => {
    expect((await page()).html).toContain(OLD_HEADLINE)
    const text = readFileSync(grocery, 'utf8')
    writeFileSync(grocery, text.replace(OLD_HEADLINE, 'Edited in the working tree'))
    await expect
      .poll(async () => (await page()).html, { timeout: 30_000, interval: 250 })
      .toContain('Edited in the working tree')
    writeFileSync(grocery, '{ "broken": ')
    // Refused (logged, naming the file): the site keeps the last valid version.
    await expect.poll(() => server.output(), { timeout: 30_000, interval: 250 }).toMatch(/grocery\.json/)
    const kept = await page()
    expect(kept.status).toBe(200)
    expect(kept.html).toContain('Edited in the working tree')
  })
})
