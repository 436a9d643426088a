import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setField } from '../../engine/control-center/content/set-field'
import { loadConfig } from '../config'
import { ContentRepository } from '../content/content-repository'
import { PUBLISHED_REF } from '../content/git/branch-name'
import { exportToWorkingTree } from '../content/git/import-content'
import { importBranch } from './content-import'

describe('npm run content -- import | export', () => {
  let dir: string
  let content: ContentRepository
  let src: { projectRoot: string; definitionsDir: string }
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-content-cli-'))
    const root = loadConfig({}).projectRoot
    // A copy of the project's content, so the test edits and exports without touching the repository.
    src = { projectRoot: join(dir, 'code'), definitionsDir: join(dir, 'code', 'definitions') }
    cpSync(join(root, 'definitions'), src.definitionsDir, { recursive: true })
    cpSync(join(root, 'ui', 'public', 'images'), join(src.projectRoot, 'ui', 'public', 'images'), {
      recursive: true,
    })
    content = await ContentRepository.open(join(dir, 'content.git'), null)
    await content.ensurePublished(src)
  }, 60_000)
  afterAll(() => {
    content?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('import: the working tree as a branch cc/import-<ts> on top of live, its diff the developer’s change', async () => {
    expect(await importBranch(content, src)).toMatchObject({ branch: null, changed: 0 })
    const file = join(src.definitionsDir, 'pages', 'grocery.json')
    writeFileSync(file, setField(readFileSync(file, 'utf8'), '/headline', 'From the code repository'))
    const r = await importBranch(content, src, new Date('2026-11-23T15:04:05Z'))
    expect(r.branch).toBe('import-20261123-150405')
    expect(r.changed).toBe(1)
    expect(await content.repo.changedPaths((await content.repo.resolve(PUBLISHED_REF))!, r.commit)).toEqual([
      'definitions/pages/grocery.json',
    ])
  })

  it('export: writes a commit’s files into the working tree and removes those it no longer has', async () => {
    const stray = join(src.definitionsDir, 'pages', 'stray.json')
    writeFileSync(stray, '{}')
    const live = (await content.repo.resolve(PUBLISHED_REF))!
    const r = await exportToWorkingTree(content.repo, live, src)
    expect(r.removed).toBe(1)
    expect(existsSync(stray)).toBe(false)
    expect(JSON.parse(readFileSync(join(src.definitionsDir, 'pages', 'grocery.json'), 'utf8')).headline).toBe(
      'Help with groceries from your Medicare plan',
    )
  })
})
