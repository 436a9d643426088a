import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  axeAndLook,
  branchWith,
  type CcSession,
  call,
  openScreen as open,
  startCcSession,
} from './cc-session'

const FUNNEL = 'definitions/funnels/quiz-otc.json'
const ZIP = 'definitions/steps/zip.json'

let session: CcSession
let cc: string
let context: BrowserContext

beforeAll(async () => {
  session = await startCcSession({ prefix: 'fw-cc-gates-', staff: [['pat@x.test', 'Pat', 'publisher']] })
  cc = session.cc
  const signedIn = await session.signIn('pat@x.test', { timezoneId: 'UTC' })
  context = signedIn.context
  const page = signedIn.page
  await page.close()
}, 180_000)

afterAll(async () => {
  await session?.close()
})

const openScreen = (page: Page, path: string) => open(page, `${cc}${path}`)

describe('publish gates, CONTROL-CENTER §8 Issue 2 steps 3 and 4', { timeout: 150_000 }, () => {
  it('a skippable contact step puts the consent gate in Checks with the path, and publishing is refused', async () => {
    const page = await context.newPage()
    await page.goto(`${cc}/`)
    const commit = await branchWith(page, 'skip-contact', [
      [
        FUNNEL,
        (d) => {
          d.steps[4].overrides = { skippable: true }
        },
      ],
    ])
    await openScreen(page, '/branches/skip-contact?tab=checks')
    const text = await page.locator('.cc-page').innerText()
    expect(text).toContain(
      'path zip→medicare→medicaid→name→contact(skipped) finishes with a phone number that no consent-bearing step collected',
    )
    expect(await page.getByRole('button', { name: 'Publish now' }).isDisabled()).toBe(true)
    await axeAndLook(page, 'gates-checks-1280')
    const refused = await call(page, 'POST', '/api/cc/branches/skip-contact/publish', {
      expectedHead: commit,
    })
    expect(refused.status).toBe(422)
    expect(refused.body.errors[0]).toMatchObject({ file: FUNNEL, pointer: '/steps/4' })
    await page.close()
  })

  it('editing shared step zip shows "Shared by N funnels on M brands" with the pages, and the path diff', async () => {
    const page = await context.newPage()
    await page.goto(`${cc}/`)
    await branchWith(page, 'zip-and-jump', [
      [
        ZIP,
        (d) => {
          d.subtitle = 'Plans differ by county.'
        },
      ],
      [
        FUNNEL,
        (d) => {
          d.steps[1].overrides = {
            onSubmit: {
              type: 'go-to-step',
              step: 'contact',
              when: { type: 'answer-equals', field: 'haveMedicare', value: false },
            },
          }
        },
      ],
    ])
    await openScreen(page, '/branches/zip-and-jump')
    await page.getByRole('tab', { name: 'Impact' }).click()
    await page.waitForSelector('[data-testid="impact"]', { timeout: 30_000 })
    const step = await page.getByTestId('impact-step-zip').innerText()
    expect(step).toMatch(/Shared by 14 funnels on \d+ brands/)
    expect(step).toContain('quiz-otc')
    expect(step).toContain('test-page-quiz')
    const paths = await page.getByTestId('impact-funnel-quiz-otc').innerText()
    expect(await page.getByTestId('edges-added').innerText()).toContain(
      'medicare, answered no → contact (go to step)',
    )
    expect(await page.getByTestId('edges-removed').innerText()).toContain(
      'medicare, any answer → medicaid (next step)',
    )
    expect(paths).toContain('Edges added')
    await axeAndLook(page, 'gates-impact-1280')
    await page.setViewportSize({ width: 375, height: 800 })
    await axeAndLook(page, 'gates-impact-375')
    await page.close()
  })

  it('a funnel the gates refuse, pushed with plain git: the hook refuses it; past the hook, publishers see a banner and restore live', async () => {
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@x.test', ...args], { encoding: 'utf8' })
    const repo = join(session.dataDir, 'content.git')
    const work = join(session.dataDir, 'work')
    expect(git('clone', '-q', repo, work).status).toBe(0)
    const file = join(work, FUNNEL)
    const doc = JSON.parse(readFileSync(file, 'utf8'))
    doc.steps[4].overrides = { skippable: true }
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`)
    expect(git('-C', work, 'commit', '-qam', 'Skip contact').status).toBe(0)
    const hooked = git('-C', work, 'push', 'origin', 'HEAD:published')
    expect(hooked.status).not.toBe(0)
    expect(hooked.stderr).toMatch(
      /remote: definitions\/funnels\/quiz-otc\.json:\d+:\d+ {2}\/steps\/4 {2}path /,
    )

    rmSync(join(repo, 'hooks', 'pre-receive'))
    expect(git('-C', work, 'push', 'origin', 'HEAD:published').status).toBe(0)
    const page = await context.newPage()
    await openScreen(page, '/branches')
    const banner = page.locator('.cc-live-refused')
    await banner.waitFor({ timeout: 30_000 })
    expect(await banner.getAttribute('role')).toBe('alert')
    expect(await banner.innerText()).toMatch(/quiz-otc\.json:\d+:\d+\s+\/steps\/4\s+path zip→medicare/)
    await axeAndLook(page, 'live-refused-banner-1280')
    await page.getByRole('button', { name: /^Restore live to [0-9a-f]{7}$/ }).click()
    await banner.waitFor({ state: 'detached', timeout: 30_000 })
    const live = await call(page, 'GET', '/api/cc/live')
    expect(live.body.live).toMatchObject({ content: 'ok', refused: null })
    await page.close()
  })
})
