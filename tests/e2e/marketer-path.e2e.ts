/**
 * A marketer's path to live (issue 27, README "From a new page to live"), with the CLIs run as the
 * README says — no DATA_DIR beside the running server — against a real `npm start` server on PGlite:
 * staff users made while it runs, a new page imported into its repository (never a second one),
 * previewed through the printed signed link, published through the control center's API, and then
 * answering on its brands. Also: an import naming another DATA_DIR is refused with the server's.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RUN_DIR_ENV } from '../../server/runtime/running-servers'
import { httpGet, sendJson } from './http'
import { newDataDir, PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

const PASSWORD = 'correct-horse-battery'
const PAGE = {
  $schema: '../../schemas/page.schema.json',
  path: '/spring-dental-offer',
  brands: ['m10', 'bh'],
  template: 'landing',
  title: 'Spring dental offer',
  description: 'Dental help for Medicare members.',
  product: 'Dental Coverage',
  headline: 'Dental help this spring',
  subheadline: 'See what your plan may cover.',
  image: { src: '/images/hidden-benefits.svg', alt: 'A smiling couple', width: 640, height: 480 },
  benefits: ['Cleanings', 'Fillings'],
  sections: [{ heading: 'What is covered', body: ['Many plans cover routine care.'] }],
  faq: [{ question: 'Who can apply?', answer: 'Medicare members.' }],
}

describe('a marketer’s path to live, as the README says', () => {
  let server: ServerProcess
  let dataDir: string
  let scratch: string
  let env: NodeJS.ProcessEnv

  /** An `npm run <script>` CLI, run as the README says: no DATA_DIR. */
  const cli = (script: string, args: string[], extra: NodeJS.ProcessEnv = {}) => {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', script), ...args],
      {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
        env: { ...env, ...extra },
      },
    )
    return { status: r.status, out: `${r.stdout}${r.stderr}` }
  }

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'fw-marketer-'))
    dataDir = newDataDir('fw-marketer-data-')
    // A run-file folder of this test's own, so other test servers of this checkout do not count.
    const runDir = join(scratch, 'run')
    server = await startServerProcess({ DATA_DIR: dataDir, CONTENT_SOURCE: 'git', [RUN_DIR_ENV]: runDir })
    // The marketer's working tree: the project's definitions plus the new page.
    const definitions = join(scratch, 'definitions')
    cpSync(join(PROJECT_ROOT, 'definitions'), definitions, { recursive: true })
    writeFileSync(
      join(definitions, 'pages', 'spring-dental-offer.json'),
      `${JSON.stringify(PAGE, null, 2)}\n`,
    )
    env = { ...process.env, [RUN_DIR_ENV]: runDir, DEFINITIONS_DIR: definitions, LOG_LEVEL: 'error' }
    delete env.DATA_DIR
    delete env.DATABASE_URL
    delete env.CONTENT_GIT_DIR
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(scratch, { recursive: true, force: true })
  })

  it('staff commands work while the server runs on PGlite, through it', () => {
    const add = cli('staff.ts', ['add', 'pat@example.com', 'Pat', '--role', 'editor'], {
      FW_STAFF_PASSWORD: PASSWORD,
    })
    expect(add.out).toMatch(/^created pat@example\.com \(editor\), id /)
    expect(add.status).toBe(0)
    expect(cli('staff.ts', ['role', 'pat@example.com', 'publisher']).out).toContain(
      'pat@example.com: editor → publisher',
    )
    expect(cli('staff.ts', ['disable', 'pat@example.com']).out).toContain('disabled (sessions ended)')
    expect(cli('staff.ts', ['enable', 'pat@example.com']).out).toContain('pat@example.com: enabled')
  })

  it('validate says the new page is not live yet and what to run', () => {
    const r = cli('validate.ts', [])
    expect(r.status, r.out).toBe(0)
    expect(r.out).toMatch(
      new RegExp(
        `not live yet: 1 file differs from what the server on port ${server.port} publishes .*definitions/pages/spring-dental-offer\\.json`,
      ),
    )
    expect(r.out).toContain('npm run content -- import')
  })

  it('an import naming another DATA_DIR is refused, naming the server’s, and creates nothing', () => {
    const other = join(scratch, 'other-data')
    const r = cli('content.ts', ['import'], { DATA_DIR: other })
    expect(r.status).toBe(1)
    expect(r.out).toContain(`keeps its own in DATA_DIR=${dataDir}`)
    expect(existsSync(other)).toBe(false)
  })

  it('import → signed preview → publish → the page answers on its brands', async () => {
    const r = cli('content.ts', ['import'])
    expect(r.status, r.out).toBe(0)
    const branch = /branch (import-[\d-]+) at /.exec(r.out)?.[1]
    expect(branch, r.out).toBeTruthy()
    expect(r.out).toContain(`in ${join(dataDir, 'content.git')}`)
    expect(r.out).toContain(`control center: http://ccc.localhost:${server.port}/branches/${branch}`)
    expect(r.out).toContain('preview (signed for pat@example.com')
    const preview = new URL(/(http:\/\/m10\.localhost:\d+\/spring-dental-offer\?\S+)/.exec(r.out)![1])
    // The preview shows the page; live does not have it yet.
    const shown = await httpGet(server.port, `${preview.pathname}${preview.search}`, preview.host)
    expect(shown.status).toBe(200)
    expect(shown.body).toContain('Dental help this spring')
    expect((await httpGet(server.port, '/spring-dental-offer', `m10.localhost:${server.port}`)).status).toBe(
      404,
    )
    // Publish as the README says: sign in on the control center, publish the branch.
    const cc = `ccc.localhost:${server.port}`
    const signIn = await sendJson(server.port, cc, 'POST', '/api/_auth/session', {
      email: 'pat@example.com',
      password: PASSWORD,
    })
    expect(signIn.status, signIn.body).toBe(200)
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]
    const head = JSON.parse(
      (await sendJson(server.port, cc, 'GET', `/api/cc/branches/${branch}`, undefined, cookie)).body,
    ).branch.head as string
    const published = await sendJson(
      server.port,
      cc,
      'POST',
      `/api/cc/branches/${branch}/publish`,
      { expectedHead: head },
      cookie,
    )
    expect(published.status, published.body).toBe(200)
    for (const brand of ['m10', 'bh']) {
      const page = await httpGet(server.port, '/spring-dental-offer', `${brand}.localhost:${server.port}`)
      expect(page.status, brand).toBe(200)
      expect(page.body).toContain('Dental help this spring')
    }
    expect(cli('content.ts', ['import']).out).toContain('nothing to import: the working tree equals live')
  }, 60_000)
})
