import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brandUrl } from './browser'
import { axeAndLook, branchWith, type CcSession, call, openScreen, startCcSession } from './cc-session'

const FUNNEL = 'definitions/funnels/quiz-otc.json'
const TITLE = 'First, your ZIP code'

let session: CcSession

beforeAll(async () => {
  session = await startCcSession({
    prefix: 'fw-cc-override-',
    staff: [
      ['pat@x.test', 'Pat', 'publisher'],
      ['ada@x.test', 'Ada', 'admin'],
    ],
    // The gates get no time at all: every changed funnel's gates run out, as on a huge funnel.
    env: { CC_GATE_BUDGET_MS: '0' },
  })
}, 180_000)

afterAll(async () => {
  await session?.close()
})

describe('a gate that ran out of time (CONTROL-CENTER §7 risks)', { timeout: 150_000 }, () => {
  it('blocks a publisher; an admin publishes past it with a reason, which the audit log keeps', async () => {
    const pat = await session.signIn('pat@x.test')
    const commit = await branchWith(pat.page, 'slow', [
      [
        FUNNEL,
        (d) => {
          d.steps[0].overrides = { ...d.steps[0].overrides, title: TITLE }
        },
      ],
    ])
    await openScreen(pat.page, `${session.cc}/branches/slow?tab=checks`)
    expect(await pat.page.locator('.cc-page').innerText()).toContain(
      'could not check every path within its budget',
    )
    expect(await pat.page.getByRole('button', { name: 'Publish now' }).isDisabled()).toBe(true)
    await pat.context.close()

    const ada = await session.signIn('ada@x.test')
    const page = ada.page
    await openScreen(page, `${session.cc}/branches/slow`)
    await page.getByRole('button', { name: 'Publish now' }).click()
    const form = page.getByTestId('gate-override')
    await form.waitFor()
    expect(await form.textContent()).toContain('could not check every path within its budget')
    const submit = form.getByRole('button', { name: 'Publish with an override' })
    const reason = form.getByLabel('Why is publishing without a complete check safe?')
    await reason.fill('short')
    expect(await submit.isDisabled()).toBe(true)
    await axeAndLook(page, 'gate-override-1280')
    await page.setViewportSize({ width: 375, height: 800 })
    await axeAndLook(page, 'gate-override-375')
    await reason.fill('Only the first title changed; walked the quiz by hand on the preview.')
    await submit.click()
    await page.getByText('Published past the gates that ran out of time').waitFor()

    // Live serves it: the quiz's first step has the new title.
    const live = await ada.context.newPage()
    await live.goto(brandUrl('m10', session.server.port, '/quiz/otc'))
    await expect.poll(() => live.locator('h1, h2').allTextContents()).toContain(TITLE)
    await live.close()
    const audit = await call(page, 'GET', '/api/cc/audit?action=publish&branch=slow')
    expect(audit.status).toBe(200)
    const [entry] = audit.body.entries
    expect(entry.actor.name).toBe('Ada')
    expect(entry.details.gatesOverridden.reason).toBe(
      'Only the first title changed; walked the quiz by hand on the preview.',
    )
    expect(entry.details.gatesOverridden.gates[0]).toContain(FUNNEL)
    expect(commit).toMatch(/^[0-9a-f]{40}$/)
    await ada.context.close()
  })
})
