import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setField } from '../../engine/control-center/content/set-field'
import { importTarget } from '../cli/content-import'
import { loadConfig } from '../config'
import { ContentRepository } from '../content/content-repository'
import { driftFromPublished, notLiveYet } from './not-live-yet'
import {
  NoSingleServerError,
  pickServer,
  registerRunningServer,
  runningServers,
  type ServerRunInfo,
} from './running-servers'

const root = loadConfig({}).projectRoot
let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fw-running-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const info = (over: Partial<ServerRunInfo>): ServerRunInfo => ({
  pid: process.pid,
  startedAt: null,
  port: 3500,
  projectRoot: root,
  dataDir: '/srv/a',
  store: 'pglite',
  contentSource: 'git',
  contentGitDir: '/srv/a/content.git',
  contentRemote: null,
  ...over,
})

describe('run files of the servers of this checkout (docs/decisions/0615)', () => {
  it('lists a live server of this checkout, forgets it when removed, and drops files of dead processes', async () => {
    const runDir = join(dir, 'run')
    const { pid: _pid, startedAt: _startedAt, ...entry } = info({})
    const mine = registerRunningServer(entry, runDir)
    expect(mine.error).toBeNull()
    registerRunningServer({ ...entry, projectRoot: '/elsewhere' }, join(dir, 'other-run'))
    expect(runningServers(root, runDir)).toEqual([
      expect.objectContaining({ pid: process.pid, dataDir: '/srv/a' }),
    ])
    // A process that has exited: its run file is stale.
    const child = spawn(process.execPath, ['-e', ''])
    await new Promise((r) => child.once('exit', r))
    writeFileSync(join(runDir, `${child.pid}.json`), JSON.stringify({ ...info({}), pid: child.pid }))
    expect(runningServers(root, runDir).map((s) => s.pid)).toEqual([process.pid])
    expect(existsSync(join(runDir, `${child.pid}.json`))).toBe(false)
    mine.remove()
    expect(readdirSync(runDir)).toEqual([])
    expect(runningServers(root, join(dir, 'missing'))).toEqual([])
  })

  it('picks the only server, the named one, or refuses several unnamed', () => {
    const a = info({})
    const b = info({ pid: 2, port: 3501, dataDir: '/srv/b', contentGitDir: '/srv/b/content.git' })
    expect(pickServer([a], false, () => false)).toBe(a)
    expect(pickServer([], false, () => true)).toBeNull()
    expect(pickServer([a, b], true, (s) => s.dataDir === '/srv/b')).toBe(b)
    expect(pickServer([a, b], true, () => false)).toBeNull()
    expect(() => pickServer([a, b], false, () => true)).toThrow(NoSingleServerError)
    expect(() => pickServer([a, b], false, () => true)).toThrow(/DATA_DIR=\/srv\/a.*DATA_DIR=\/srv\/b/)
  })
})

describe('content import’s repository (docs/decisions/0615)', () => {
  const config = (dataDir: string) => ({
    dataDir,
    contentGitDir: join(dataDir, 'content.git'),
    contentRemote: null,
  })
  it('the running server’s, whatever the default DATA_DIR', () => {
    const server = info({})
    expect(importTarget(config(join(dir, 'default')), {}, [server])).toMatchObject({
      contentGitDir: '/srv/a/content.git',
      dataDir: '/srv/a',
      server,
    })
  })
  it('the git-content server when a dev server runs beside it', () => {
    const dev = info({
      pid: 2,
      contentSource: 'worktree',
      dataDir: '/srv/dev',
      contentGitDir: '/srv/dev/content.git',
    })
    expect(importTarget(config(join(dir, 'default')), {}, [dev, info({})]).dataDir).toBe('/srv/a')
    expect(importTarget(config('/srv/dev'), { DATA_DIR: '/srv/dev' }, [dev, info({})]).server).toBe(dev)
  })
  it('refuses a DATA_DIR without a repository, naming the server’s, and one with neither', () => {
    expect(() => importTarget(config(join(dir, 'x')), { DATA_DIR: join(dir, 'x') }, [info({})])).toThrow(
      `no content repository at ${join(dir, 'x', 'content.git')}: the server running from this checkout (pid ${process.pid}, port 3500, DATA_DIR=/srv/a) keeps its own in DATA_DIR=/srv/a`,
    )
    expect(() => importTarget(config(join(dir, 'x')), {}, [])).toThrow(
      /no server running from this checkout: start the server \(npm start; it creates the repository\)/,
    )
    expect(existsSync(join(dir, 'x'))).toBe(false)
  })
})

describe('not live yet (docs/decisions/0618)', () => {
  let src: { projectRoot: string; definitionsDir: string }
  let gitDir: string
  beforeAll(async () => {
    src = { projectRoot: join(dir, 'code'), definitionsDir: join(dir, 'code', 'definitions') }
    cpSync(join(root, 'definitions'), src.definitionsDir, { recursive: true })
    cpSync(join(root, 'ui', 'public', 'images'), join(src.projectRoot, 'ui', 'public', 'images'), {
      recursive: true,
    })
    gitDir = join(dir, 'data', 'content.git')
    const content = await ContentRepository.open(gitDir, null)
    await content.ensurePublished(src)
    content.close()
  }, 60_000)

  it('nothing while the working tree equals live; then the changed, added and removed files and what to run', () => {
    expect(driftFromPublished(gitDir, src)?.changed).toEqual([])
    const config = { ...src, contentGitDir: gitDir }
    expect(notLiveYet(config, {})).toEqual([])
    const grocery = join(src.definitionsDir, 'pages', 'grocery.json')
    writeFileSync(grocery, setField(readFileSync(grocery, 'utf8'), '/headline', 'Changed'))
    writeFileSync(join(src.definitionsDir, 'pages', 'new-page.json'), '{}')
    rmSync(join(src.definitionsDir, 'pages', 'ads.json'))
    expect(driftFromPublished(gitDir, src)?.changed).toEqual([
      'definitions/pages/ads.json',
      'definitions/pages/grocery.json',
      'definitions/pages/new-page.json',
    ])
    const lines = notLiveYet(config, {})
    expect(lines[0]).toMatch(
      new RegExp(
        `^not live yet: 3 files differ from what ${gitDir} publishes \\([0-9a-f]{12}\\): definitions/pages/ads.json`,
      ),
    )
    expect(lines[1]).toContain('npm run content -- import')
    expect(notLiveYet({ ...config, contentGitDir: join(dir, 'none') }, {})).toEqual([])
  })
})
