/**
 * A person's data on request (issue 36, acceptance 4; docs/decisions/0811) on the built server: a person
 * walks /quiz/otc in Chromium as posted forms; `npm run leads -- export` (through the running server)
 * lists what is held; an admin finds them on the control center's Leads screen (375 px and desktop,
 * axe), erases them after confirming, and `npm run leads -- show` then says erased.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { validValue } from '../../engine/funnel/sample-values'
import { funnelCatalogue } from '../model/funnel-catalogue'
import { brandUrl } from './browser'
import { axeAndLook, type CcSession, openScreen, startCcSession } from './cc-session'
import { PROJECT_ROOT } from './server-process'

const PERSON: Record<string, string> = {
  firstName: 'Philippa',
  lastName: 'Wintergreen',
  email: 'philippa.wintergreen@example.org',
  phone: '(555) 246-8013',
}

let session: CcSession

function leads(...args: string[]) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'leads.ts'), ...args],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: session.dataDir, LOG_LEVEL: 'error' },
      timeout: 60_000,
    },
  )
}

describe('a person asks for their data, then for its erasure', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    session = await startCcSession({
      prefix: 'cc-leads',
      staff: [['ada@example.com', 'Ada Admin', 'admin']],
    })
  }, 180_000)
  afterAll(async () => {
    await session?.close()
  })

  it('walks a funnel, is exported by the CLI, found and erased on the Leads screen, and shown as erased', async () => {
    // The person: every step of /quiz/otc posted as forms from a browser on the brand's host.
    const funnel = funnelCatalogue().find((f) => f.funnel.id === 'quiz-otc')!.funnel
    const forms = funnel.steps.map((s) =>
      Object.fromEntries(s.fields.map((f) => [f.name, PERSON[f.name] ?? String(validValue(f))])),
    )
    const visitor = await session.browser.newContext()
    const tab = await visitor.newPage()
    await tab.route(/googletagmanager|mediaalpha/, (r) => r.abort())
    await tab.goto(brandUrl('m10', session.server.port, '/quiz/otc/zip'))
    const reached = await tab.evaluate(async (forms) => {
      let path = '/quiz/otc/zip'
      for (const form of forms) {
        const r = await fetch(path, {
          method: 'POST',
          body: new URLSearchParams(form),
          credentials: 'same-origin',
        })
        path = new URL(r.url).pathname
      }
      return path
    }, forms)
    expect(reached).toBe('/thank-you')
    await visitor.close()

    const exported = leads('export', PERSON.email, '--json')
    expect(exported.status, exported.stderr).toBe(0)
    const held = JSON.parse(exported.stdout)
    expect(held.matchedBy).toBe('email')
    expect(held.answers.length).toBeGreaterThan(0)
    expect(held.consentRecords).toHaveLength(1)
    expect(held.events.length).toBeGreaterThan(funnel.steps.length)

    const { page } = await session.signIn('ada@example.com', { viewport: { width: 375, height: 800 } })
    await openScreen(page, `${session.cc}/leads`)
    await expect.poll(() => page.getByText('Look a person up').count()).toBe(1)
    await page.getByLabel('E-mail, phone or visitor id').fill(PERSON.phone)
    await page.keyboard.press('Enter')
    const result = page.getByTestId('leads-result')
    await result.waitFor()
    expect(await result.innerText()).toMatch(/records for .*matched by phone/)
    await page.getByText(/^Answers kept/).click()
    expect(await result.innerText()).toContain(PERSON.email)
    await axeAndLook(page, 'cc-leads-found', [375, 1280])

    await page.getByRole('button', { name: 'Erase…' }).click()
    const dialog = page.getByRole('dialog', { name: "Erase this person's data?" })
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click()
    await page.getByText(/^Erased /).waitFor()
    expect(await page.getByTestId('leads-result').innerText()).not.toContain(PERSON.email)
    await axeAndLook(page, 'cc-leads-erased', [375])

    const shown = leads('show', PERSON.email)
    expect(shown.status, shown.stderr).toBe(0)
    expect(shown.stdout).toMatch(/Erased: /)
    const after = JSON.parse(leads('export', PERSON.email, '--json').stdout)
    expect(after.answers).toEqual([])
    expect(JSON.stringify({ ...after, key: null })).not.toMatch(/philippa|wintergreen|246-8013/i)
  })
})
