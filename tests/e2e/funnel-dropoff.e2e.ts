/**
 * Drop-off of a funnel (issue 29, acceptance 5): a seeded set of visits whose counts this test knows,
 * sent through POST /api/event/create as browsers (and the no-JavaScript path, `serverSide`) would;
 * the control center's funnel screen and `npm run funnels -- dropoff` (through the running server)
 * tell the same story, and a bot's visit counts nowhere.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeAndLook, type CcSession, openScreen, startCcSession } from './cc-session'
import { sendJson } from './http'
import { PROJECT_ROOT } from './server-process'

const FUNNEL = 'quiz-grocery'
const PAGE = 'quiz-grocery'
const STEPS = ['zip', 'medicare', 'medicaid', 'name', 'contact']

let session: CcSession
let page: Page

type Move = { view: string } | { submit: string } | 'completed'

/** Visits: each browser's moves in order (a submit is formStepSubmitted, a view the step's pageview). */
const VISITS: {
  anon: string
  moves: Move[]
  bot?: boolean
  utm?: string
  mobile?: boolean
  serverSide?: boolean
}[] = [
  {
    anon: 'dropoff-a',
    serverSide: true,
    moves: [
      { view: 'zip' },
      { submit: 'zip' },
      { view: 'medicare' },
      { submit: 'medicare' },
      { view: 'medicaid' },
      { submit: 'medicaid' },
      { view: 'name' },
      { submit: 'name' },
      { view: 'contact' },
      { submit: 'contact' },
      'completed',
    ],
  },
  {
    anon: 'dropoff-b',
    moves: [
      { view: 'zip' },
      { submit: 'zip' },
      { view: 'medicare' },
      { submit: 'medicare' },
      { view: 'medicaid' },
    ],
  },
  // Back from medicare to zip, then gone.
  { anon: 'dropoff-c', moves: [{ view: 'zip' }, { submit: 'zip' }, { view: 'medicare' }, { view: 'zip' }] },
  { anon: 'dropoff-d', moves: [{ view: 'zip' }] },
  {
    anon: 'dropoff-e',
    utm: 'facebook',
    mobile: true,
    moves: [
      { view: 'zip' },
      { submit: 'zip' },
      { view: 'medicare' },
      { submit: 'medicare' },
      { view: 'medicaid' },
      { submit: 'medicaid' },
      { view: 'name' },
    ],
  },
  // A bot that goes all the way: counted nowhere.
  {
    anon: 'dropoff-bot',
    bot: true,
    moves: [{ view: 'zip' }, { submit: 'zip' }, { view: 'medicare' }, { submit: 'medicare' }, 'completed'],
  },
]

/** What the seeded visits must give, per step: reached, submitted, forward, back, completed, left. */
const EXPECTED = {
  zip: { reached: 5, submitted: 4, forward: { medicare: 3 }, back: 0, completed: 0, left: 2 },
  medicare: { reached: 4, submitted: 3, forward: { medicaid: 3 }, back: 1, completed: 0, left: 0 },
  medicaid: { reached: 3, submitted: 2, forward: { name: 2 }, back: 0, completed: 0, left: 1 },
  name: { reached: 2, submitted: 1, forward: { contact: 1 }, back: 0, completed: 0, left: 1 },
  contact: { reached: 1, submitted: 1, forward: {}, back: 0, completed: 1, left: 0 },
}

const UA = {
  desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36',
  mobile: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
}

function bodies(): unknown[] {
  const out: unknown[] = []
  const t0 = Date.now() - 3 * 3600_000
  for (const [v, visit] of VISITS.entries())
    for (const [i, move] of visit.moves.entries()) {
      const timestamp = new Date(t0 + v * 600_000 + i * 10_000).toISOString()
      const properties = {
        eventId: `${visit.anon}-${i}`,
        userId: visit.anon,
        brand: { id: 'm10', name: 'M10' },
        session: {
          id: `s-${visit.anon}`,
          paid: false,
          urlParams: visit.utm ? { utm_source: visit.utm } : {},
        },
        url: { full: `http://m10.localhost/quiz/grocery`, path: '/quiz/grocery', query: '' },
        page: { name: PAGE, ...(typeof move === 'object' && 'view' in move ? { stepName: move.view } : {}) },
        bot: visit.bot ? { bot: true, kind: 'headless' } : { bot: false },
        userAgent: visit.mobile ? UA.mobile : UA.desktop,
        ...(visit.serverSide ? { serverSide: true } : {}),
      }
      const ids = { timestamp, sessionId: `s-${visit.anon}`, anonymousId: visit.anon }
      if (move === 'completed')
        out.push({
          type: 'track',
          event: 'funnelCompleted',
          ...ids,
          properties: { ...properties, exit: 'destination' },
        })
      else if ('view' in move) out.push({ type: 'page', name: PAGE, category: 'funnel', ...ids, properties })
      else
        out.push({
          type: 'track',
          event: 'formStepSubmitted',
          ...ids,
          properties: {
            ...properties,
            formVersion: 'quiz-grocery-1',
            stepName: move.submit,
            stepNumber: STEPS.indexOf(move.submit) + 1,
            data: {},
          },
        })
    }
  return out
}

/** `npm run funnels -- dropoff …` against the running server's data folder; its JSON. */
function cli(...args: string[]) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'funnels.ts'), 'dropoff', FUNNEL, ...args],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: session.dataDir, LOG_LEVEL: 'error' },
    },
  )
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

type Step = {
  step: string
  reached: number
  submitted: number
  forward: Record<string, number>
  back: number
  completed: number
  left: number
}

/** The table the screen shows, read back from its cells. */
async function screenTable(scope = page.locator('[data-testid="dropoff-table"]').first()) {
  const rows: Record<string, Partial<Step>> = {}
  for (const name of STEPS) {
    const row = scope.locator(`tr[data-step="${name}"]`)
    const value = async (label: string) =>
      Number(await row.locator(`td[data-label="${label}"]`).getAttribute('data-value'))
    const on = (await row.locator('td[data-label="Went on to"]').innerText()).trim()
    rows[name] = {
      reached: await value('Reached'),
      submitted: await value('Submitted'),
      forward:
        on === '—'
          ? {}
          : Object.fromEntries(on.split(', ').map((x) => [x.split(' ')[0], Number(x.split(' ')[1])])),
      back: await value('Back'),
      completed: await value('Completed'),
      left: await value('Left'),
    }
  }
  return rows
}

const tableOf = (steps: Step[]) =>
  Object.fromEntries(
    steps.map(({ step, reached, submitted, forward, back, completed, left }) => [
      step,
      { reached, submitted, forward, back, completed, left },
    ]),
  )

beforeAll(async () => {
  session = await startCcSession({ prefix: 'fw-dropoff-', staff: [['ana@x.test', 'Ana', 'editor']] })
  const all = bodies()
  for (let i = 0; i < all.length; i += 20) {
    const r = await sendJson(
      session.server.port,
      'm10.localhost',
      'POST',
      '/api/event/create',
      all.slice(i, i + 20),
    )
    expect(r.status, r.body).toBe(200)
  }
  ;({ page } = await session.signIn('ana@x.test'))
}, 180_000)

afterAll(async () => {
  await session?.close()
})

describe('funnel drop-off', { timeout: 120_000 }, () => {
  it('the CLI (through the running server) counts the seeded visits, bots left out', () => {
    const report = JSON.parse(cli('--json'))
    expect(report.visitors).toBe(5)
    expect(report.pages).toContain(PAGE)
    expect(tableOf(report.steps)).toEqual(EXPECTED)
    const text = cli()
    expect(text).toMatch(/browsers whose first step view was in .* \(bots left out\): 5/)
    expect(text).toMatch(/1\. zip\s+5\s+4 \(80%\)/)
    const bySource = JSON.parse(cli('--by', 'source', '--json'))
    const facebook = bySource.segments.find((s: { segment: string }) => s.segment === 'facebook')
    expect(facebook.visitors).toBe(1)
    expect(tableOf(facebook.steps).name).toEqual({
      reached: 1,
      submitted: 0,
      forward: {},
      back: 0,
      completed: 0,
      left: 1,
    })
  })

  it('the funnel screen, reached from the page editor, shows the same table and chart, at 1280 and 375 px, axe clean', async () => {
    await openScreen(page, `${session.cc}/pages/${PAGE}?branch=live&tab=funnel`)
    await page.getByRole('link', { name: 'Drop-off of this funnel (live traffic)' }).click()
    await page.waitForURL(`**/funnels/${FUNNEL}/dropoff`)
    await expect.poll(() => page.getByTestId('dropoff-visitors').textContent()).toBe('5')
    const shown = await screenTable()
    expect(shown).toEqual(EXPECTED)
    expect(shown).toEqual(tableOf(JSON.parse(cli('--json')).steps))
    await expect.poll(() => page.getByRole('img', { name: /^Funnel chart, All visitors/ }).count()).toBe(1)
    await axeAndLook(page, 'funnel-dropoff', [1280, 375])
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('splits by device on the screen as the CLI does, and shows the empty and error states', async () => {
    await page.getByLabel('Split by').selectOption('device')
    await page.getByRole('button', { name: 'Show', exact: true }).click()
    const mobile = page.getByRole('region', { name: 'Device: mobile' })
    await mobile.waitFor()
    const cliMobile = JSON.parse(cli('--by', 'device', '--json')).segments.find(
      (s: { segment: string }) => s.segment === 'mobile',
    )
    expect(await screenTable(mobile.locator('[data-testid="dropoff-table"]'))).toEqual(
      tableOf(cliMobile.steps),
    )
    await axeAndLook(page, 'funnel-dropoff-by-device', [1280, 375])
    // A range without visits: the empty state.
    await openScreen(page, `${session.cc}/funnels/${FUNNEL}/dropoff?since=2020-01-01&until=2020-02-01`)
    await expect.poll(() => page.getByText(/No visitor reached a step of this funnel/).count()).toBe(1)
    // An unknown funnel: the error, with a way to try again.
    await openScreen(page, `${session.cc}/funnels/no-such-funnel/dropoff`)
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/unknown funnel "no-such-funnel"/)
    await axeAndLook(page, 'funnel-dropoff-error')
  })

  it('the API checks its input at the edge', async () => {
    const ask = (q: string) =>
      page.evaluate(async (u) => {
        const r = await fetch(u)
        return { status: r.status, body: await r.json() }
      }, `/api/cc/funnels/${FUNNEL}/dropoff?${q}`)
    expect(await ask('since=yesterday')).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/\?since/) },
    })
    expect(await ask('by=planet')).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/\?by: must be one of/) },
    })
    expect(await ask('since=2026-02-01&until=2026-01-01')).toMatchObject({ status: 400 })
  })
})
