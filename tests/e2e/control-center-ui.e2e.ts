import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Window } from 'happy-dom'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { routeThirdParties } from './browser'
import {
  type CcSession,
  call,
  commitWithMessage,
  headerTooHigh,
  openScreen as open,
  PASSWORD,
  startCcSession,
} from './cc-session'
import { httpGet } from './http'
import { opsClient } from './ops-client'
import type { ServerProcess } from './server-process'
import { cc as ccApi, signIn as signInHttp } from './staff-publish'

const OLD_HEADLINE = 'Help with groceries from your Medicare plan'
const NEW_HEADLINE = 'Spring: groceries covered by your Medicare plan'
const GROCERY = 'definitions/pages/grocery.json'
/** One acceptance step: several screens, each waiting for branch snapshots on a shared 2-core machine. */
const FLOW_MS = 180_000

let session: CcSession
let server: ServerProcess
let cc: string

beforeAll(async () => {
  session = await startCcSession({
    prefix: 'fw-cc-ui-',
    staff: [
      ['ed@x.test', 'Ed', 'editor'],
      ['pub@x.test', 'Pub', 'publisher'],
    ],
  })
  ;({ server, cc } = session)
}, 180_000)

afterAll(async () => {
  await session?.close()
})

async function newContext(width = 1280): Promise<BrowserContext> {
  const context = await session.browser.newContext({ viewport: { width, height: 900 } })
  await routeThirdParties(context)
  return context
}

/**
 * A context signed in as this staff member: signed in over HTTP through the same API the sign-in
 * panel uses (test 2 signs in through the panel), the session cookie handed to the browser.
 */
async function signedIn(email: string, width = 1280): Promise<BrowserContext> {
  const cookie = await signInHttp(server.port, { email, password: PASSWORD })
  const context = await newContext(width)
  const at = cookie.indexOf('=')
  await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: cc }])
  return context
}

/**
 * A JSON call to the control center's API as the context's user (its session cookie), from Node:
 * the moves that set a test up or read the result are not the screens under test.
 */
async function api(context: BrowserContext, method: string, path: string, body?: unknown) {
  const cookie = (await context.cookies(cc)).map((c) => `${c.name}=${c.value}`).join('; ')
  const r = await ccApi(server.port, method, path, body, cookie)
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read as JSON
  return { status: r.status, body: r.json as any }
}

const parser = new new Window().DOMParser()
/** The headline a visitor gets for m10's /grocery now (the server's page; no session, no cache). */
async function liveHeadline(): Promise<string> {
  const r = await httpGet(server.port, '/grocery', `m10.localhost:${server.port}`)
  expect(r.status).toBe(200)
  return parser.parseFromString(r.body, 'text/html').querySelector('h1')?.textContent?.trim() ?? ''
}

/** Opens a control-center screen and waits until nothing on it is loading. */
const openScreen = (page: Page, path: string) => open(page, `${cc}${path}`)

/** Page grocery's text as the Source editor starts from it (my draft, else the branch's). */
async function serverText(page: Page): Promise<string> {
  const branch = new URL(page.url()).searchParams.get('branch')
  const file = await call(page, 'GET', `/api/cc/branches/${branch}/file?path=${GROCERY}`)
  return file.body.draft?.text ?? file.body.text
}

/** Replaces the text of page grocery's Source editor (what the server has, edited) as one input. */
async function typeSource(page: Page, edit: (text: string) => string, known?: string): Promise<void> {
  const text = known ?? (await serverText(page))
  expect(text).toContain('"headline"')
  const content = page.locator('.cm-content')
  await content.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(edit(text))
}

async function heading(page: Page): Promise<string> {
  return (await page.locator('h1').first().textContent())?.trim() ?? ''
}

describe('control center, CONTROL-CENTER §8 Issue 1 in the browser', () => {
  it(
    '2: signed out, any screen shows the sign-in panel (401, no-store, noindex); wrong password; header "Ed · editor"',
    async () => {
      const context = await newContext()
      const page = await context.newPage()
      const res = await page.goto(`${cc}/branches`)
      expect(res?.status()).toBe(401)
      expect(res?.headers()['cache-control']).toBe('no-store')
      expect(res?.headers()['x-robots-tag']).toBe('noindex')
      await page.getByLabel('E-mail').fill('ed@x.test')
      await page.getByLabel('Password').fill('not-the-password')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('wrong e-mail or password')
      await page.getByLabel('Password').fill(PASSWORD)
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()])
      expect(page.url()).toBe(`${cc}/branches`)
      await expect.poll(() => page.getByTestId('cc-user').textContent()).toBe('Ed · editor')
      // Other paths of the control-center host are still the 404 page; unknown branches and pages too.
      for (const path of ['/nope', '/pages?branch=no-such-branch', '/pages/no-such-page?branch=live']) {
        const r = await page.goto(`${cc}${path}`)
        expect(r?.status(), path).toBe(404)
        if (path !== '/nope')
          expect(await page.locator('.error-description').textContent()).toBe(
            `Page Not Found: ${path.split('?')[0]}`,
          )
      }
      await context.close()
    },
    FLOW_MS,
  )

  it(
    '3: Ed creates "Spring promo" → /pages?branch=spring-promo; on live, a change offers to create a branch',
    async () => {
      const context = await signedIn('ed@x.test')
      const page = await context.newPage()
      await openScreen(page, '/branches')
      await page.getByRole('button', { name: 'New branch' }).click()
      const dialog = page.getByRole('dialog', { name: 'New branch' })
      await dialog.getByLabel('Title').fill('Spring promo')
      expect(await dialog.getByLabel('Name').inputValue()).toBe('spring-promo')
      await Promise.all([
        page.waitForURL(`${cc}/pages?branch=spring-promo`),
        dialog.getByRole('button', { name: 'Create branch' }).click(),
      ])
      await openScreen(page, '/pages?branch=spring-promo')
      expect(await page.getByTestId('page-table').locator('tbody tr').count()).toBeGreaterThan(30)
      // A missing branch goes to the last one used.
      await page.goto(`${cc}/pages`)
      expect(page.url()).toBe(`${cc}/pages?branch=spring-promo`)

      await openScreen(page, '/pages?branch=live')
      expect(await page.getByTestId('branch-switcher').textContent()).toContain('read-only')
      await openScreen(page, '/pages/grocery?branch=live&tab=source')
      await typeSource(page, (t) => t.replace(OLD_HEADLINE, 'Typed on live'))
      const offer = page.getByRole('dialog', { name: 'Create a branch to save' })
      await offer.waitFor()
      await page.keyboard.press('Escape')
      await offer.waitFor({ state: 'hidden' })
      // The Content tab's fields take input on live too, and the first change offers the same branch.
      await openScreen(page, '/pages/grocery?branch=live&tab=content')
      const headline = page.getByLabel('Headline', { exact: true })
      expect(await headline.isEditable()).toBe(true)
      await headline.fill('Typed on live in the form')
      await offer.waitFor()
      await page.keyboard.press('Escape')
      await offer.waitFor({ state: 'hidden' })
      await context.close()
    },
    FLOW_MS,
  )

  it(
    '37: text typed on live never crosses branches: cancelled, another branch opens with its own value; created, the new branch has it',
    async () => {
      const context = await signedIn('ed@x.test')
      const page = await context.newPage()
      const offer = page.getByRole('dialog', { name: 'Create a branch to save' })
      const headline = page.getByLabel('Headline', { exact: true })
      await openScreen(page, '/pages/grocery?branch=live&tab=content')
      await headline.fill('Typed on live, then cancelled')
      await offer.waitFor()
      await offer.getByRole('button', { name: 'Cancel' }).click()
      await offer.waitFor({ state: 'hidden' })
      // The branch last used (and any other) opens with its own headline, nothing unsaved.
      await openScreen(page, '/pages/grocery?branch=spring-promo&tab=content')
      expect(await headline.inputValue()).toBe(OLD_HEADLINE)
      expect(await page.getByTestId('save-state').textContent()).toBe('No unsaved changes')
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('grocery'))),
      ).toEqual([])

      // Kept for the branch the person creates to save it.
      await openScreen(page, '/pages/grocery?branch=live&tab=content')
      await headline.fill('Typed on live, then saved')
      await offer.waitFor()
      await offer.getByLabel('Title').fill('Keep typed')
      await Promise.all([
        page.waitForURL(/branch=keep-typed/),
        offer.getByRole('button', { name: 'Create branch' }).click(),
      ])
      await expect.poll(() => headline.inputValue(), { timeout: 30_000 }).toBe('Typed on live, then saved')
      await expect
        .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
        .toBe('Draft saved')
      await openScreen(page, '/pages/grocery?branch=spring-promo&tab=content')
      expect(await headline.inputValue()).toBe(OLD_HEADLINE)
      await context.close()
    },
    FLOW_MS,
  )

  it(
    '4–5: Source edit → draft → preview URL; live unchanged; commit → Changes shows /headline old → new; no Publish for Ed',
    async () => {
      const context = await signedIn('ed@x.test')
      const page = await context.newPage()
      await openScreen(page, '/pages/grocery?branch=spring-promo&tab=source')
      await typeSource(page, (t) => t.replace(OLD_HEADLINE, NEW_HEADLINE))
      await expect
        .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
        .toBe('Draft saved')
      // The preview reloads itself after the save (same grant, decision 0960) and shows the draft.
      await expect
        .poll(
          async () => {
            const frame = await (await page.getByTestId('preview-frame').elementHandle())?.contentFrame()
            return frame
              ?.locator('h1')
              .first()
              .textContent({ timeout: 1000 })
              .catch(() => null)
          },
          { timeout: 15_000 },
        )
        .toBe(NEW_HEADLINE)
      const src = (await page.getByTestId('preview-frame').getAttribute('src')) ?? ''
      expect(src).toMatch(
        new RegExp(`^http://m10\\.localhost:${server.port}/grocery\\?branch=spring-promo&fw_preview=`),
      )
      // The preview URL shows the draft, with the banner (opened as the control center's iframe loads it).
      const preview = await context.newPage()
      const pr = await preview.goto(src)
      expect(pr?.headers()['cache-control']).toBe('private, no-store')
      expect(await heading(preview)).toBe(NEW_HEADLINE)
      expect(await preview.getByText(/Preview of spring-promo/).count()).toBe(1)
      await preview.close()
      // A visitor on the public site still gets the old headline.
      expect(await liveHeadline()).toBe(OLD_HEADLINE)

      const dialog = await commitWithMessage(
        page,
        page.getByRole('button', { name: 'Commit' }),
        'Spring headline',
      )
      await dialog.waitFor({ state: 'hidden' })
      await openScreen(page, '/branches/spring-promo')
      const diff = page.getByTestId('diff')
      expect(await diff.textContent()).toContain(`/headline: "${OLD_HEADLINE}" → "${NEW_HEADLINE}"`)
      expect(await page.getByRole('button', { name: 'Publish now' }).count()).toBe(0)
      await context.close()
    },
    FLOW_MS,
  )

  it(
    '6: Pub publishes from the branch screen; m10 shows the new headline; Live history and Activity have the rows',
    async () => {
      const context = await signedIn('pub@x.test')
      const page = await context.newPage()
      await openScreen(page, '/branches/spring-promo')
      await page.getByRole('button', { name: 'Publish now' }).click()
      const dialog = page.getByRole('dialog', { name: 'Publish spring-promo?' })
      expect(await dialog.textContent()).toContain(GROCERY)
      await dialog.getByRole('button', { name: 'Publish' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await expect.poll(() => page.getByText('Published. Live now serves this branch.').count()).toBe(1)

      expect(await liveHeadline()).toBe(NEW_HEADLINE)

      await openScreen(page, '/branches?tab=history')
      const history = page.getByTestId('live-history')
      expect(await history.textContent()).toContain('spring-promo')
      expect(await history.textContent()).toContain('Pub')
      await openScreen(page, '/branches?tab=activity')
      // Newest first, a sentence with names each; ids and JSON only inside the closed Details.
      const sentences = await page.getByTestId('activity').locator('.cc-sentence').allInnerTexts()
      expect(sentences[0]).toMatch(/^Pub published branch spring-promo \(1 file\) — live \w{7} → \w{7}$/)
      expect(sentences).toContainEqual(
        expect.stringMatching(/^Ed committed 1 file to branch spring-promo — /),
      )
      const shown = (await page.getByTestId('activity').innerText()).replace(/Details/g, '')
      expect(shown).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|[{}"]/)
      const first = page.getByTestId('activity').locator('tbody tr').first()
      await first.getByText('Details').click()
      expect(await first.locator('pre').innerText()).toContain('"paths"')
      await context.close()
    },
    FLOW_MS,
  )

  it(
    '8: two branches change /headline; after the first publishes, Update from live shows base/theirs/mine and one choice makes publishing possible',
    async () => {
      const ed = await signedIn('ed@x.test')
      for (const [name, headline] of [
        ['promo-a', 'Headline from A'],
        ['promo-b', 'Headline from B'],
      ]) {
        expect((await api(ed, 'POST', '/api/cc/branches', { title: name, name })).status).toBe(201)
        const file = await api(ed, 'GET', `/api/cc/branches/${name}/file?path=${GROCERY}`)
        const text = (file.body.text as string).replace(/"headline": "[^"]*"/, `"headline": "${headline}"`)
        expect(
          (await api(ed, 'PUT', `/api/cc/branches/${name}/drafts?path=${GROCERY}`, { text })).status,
        ).toBe(200)
        const c = await api(ed, 'POST', `/api/cc/branches/${name}/commits`, {
          message: headline,
          expectedHead: file.body.head,
        })
        expect(c.status, JSON.stringify(c.body)).toBe(201)
      }
      await ed.close()
      const context = await signedIn('pub@x.test')
      const a = await api(context, 'GET', '/api/cc/branches/promo-a')
      expect(
        (
          await api(context, 'POST', '/api/cc/branches/promo-a/publish', {
            expectedHead: a.body.branch.head,
          })
        ).status,
      ).toBe(200)

      const page = await context.newPage()
      await openScreen(page, '/branches/promo-b')
      // Publishing now would conflict: the dialog says so, and after the 409 never "All checks pass".
      await page.getByRole('button', { name: 'Publish now' }).click()
      const refusing = page.getByRole('dialog', { name: 'Publish promo-b?' })
      expect(await refusing.getByTestId('publish-readiness').textContent()).toMatch(
        /Live changed the same fields.*\/headline/,
      )
      await refusing.getByRole('button', { name: 'Publish' }).click()
      await expect.poll(() => refusing.getByRole('alert').count()).toBeGreaterThan(0)
      expect(await refusing.textContent()).not.toContain('All checks pass')
      await page.keyboard.press('Escape')
      await refusing.waitFor({ state: 'hidden' })
      const headBefore = await page.getByTestId('branch-head').textContent()
      await page.getByRole('button', { name: 'Update from live' }).click()
      const dialog = page.getByRole('dialog', { name: 'Update from live' })
      await dialog.getByRole('button', { name: 'Update now' }).click()
      const conflicts = dialog.getByTestId('conflicts')
      await conflicts.waitFor()
      const shown = await conflicts.textContent()
      expect(shown).toContain('/headline')
      expect(shown).toContain(`Base: "${NEW_HEADLINE}"`)
      expect(shown).toContain('Live: "Headline from A"')
      expect(shown).toContain('This branch: "Headline from B"')
      await conflicts.getByLabel(/This branch/).check()
      await conflicts.getByRole('button', { name: 'Apply my choices' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await expect.poll(() => page.getByText('Updated from live.').count()).toBe(1)
      // Publishing names the head it saw: wait for the screen to show the merge commit.
      await expect
        .poll(() => page.getByTestId('branch-head').textContent(), { timeout: 30_000 })
        .not.toBe(headBefore)
      await page.getByRole('button', { name: 'Publish now' }).click()
      const publish = page.getByRole('dialog', { name: 'Publish promo-b?' })
      await publish.getByRole('button', { name: 'Publish' }).click()
      await publish.waitFor({ state: 'hidden' })
      expect(await liveHeadline()).toBe('Headline from B')
      await context.close()
    },
    FLOW_MS,
  )

  it(
    'live history: View diff shows what a publication changed; Revert only this opens a branch undoing it, or lists the fields changed again later',
    async () => {
      const context = await signedIn('pub@x.test')
      const page = await context.newPage()
      await openScreen(page, '/branches?tab=history')
      const rows = page.getByTestId('live-history').locator('tbody tr')
      const [last, before] = [rows.first(), rows.nth(1)]
      expect(await last.textContent()).toContain('promo-b')
      await last.getByRole('button', { name: 'View diff' }).click()
      const diff = page.getByRole('dialog', { name: /^What publication #\d+ changed$/ })
      await expect
        .poll(() => diff.getByTestId('diff').textContent())
        .toContain('/headline: "Headline from A" → "Headline from B"')
      if (process.env.CC_SCREENSHOTS)
        await page.screenshot({ path: join(process.env.CC_SCREENSHOTS, '1280_live_history_view_diff.png') })
      await page.keyboard.press('Escape')
      await diff.waitFor({ state: 'hidden' })
      // promo-a's headline was changed again by promo-b: a refusal naming the field, no branch.
      await before.getByRole('button', { name: 'Revert only this publication' }).click()
      const revert = page.getByRole('dialog', { name: 'Revert only this publication?' })
      await revert.getByRole('button', { name: 'Create the revert branch' }).click()
      const conflicts = revert.getByTestId('revert-conflicts')
      await conflicts.waitFor()
      expect(await conflicts.textContent()).toContain(`${GROCERY} /headline`)
      const shots = process.env.CC_SCREENSHOTS
      if (shots)
        for (const width of [1280, 375]) {
          await page.setViewportSize({ width, height: 900 })
          await page.screenshot({ path: join(shots, `${width}_live_history_revert_refused.png`) })
        }
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.keyboard.press('Escape')
      await revert.waitFor({ state: 'hidden' })
      await last.getByRole('button', { name: 'Revert only this publication' }).click()
      await Promise.all([
        page.waitForURL(/\/branches\/revert-\d+$/),
        revert.getByRole('button', { name: 'Create the revert branch' }).click(),
      ])
      await openScreen(page, new URL(page.url()).pathname)
      expect(await page.getByTestId('diff').textContent()).toContain(
        '/headline: "Headline from B" → "Headline from A"',
      )
      await context.close()
    },
    FLOW_MS,
  )

  it(
    '10: a broken page shows its error at the field in the Source tab; commit works; Publish is disabled with the reason',
    async () => {
      const ed = await signedIn('ed@x.test')
      expect((await api(ed, 'POST', '/api/cc/branches', { title: 'Broken', name: 'broken' })).status).toBe(
        201,
      )
      const page = await ed.newPage()
      await openScreen(page, '/pages/grocery?branch=broken&tab=source')
      await typeSource(page, (t) => t.replace(/"headline": "[^"]*"/, '"headline": 42'))
      await expect
        .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
        .toBe('Draft saved')
      const errors = page.getByTestId('errors')
      await errors.waitFor()
      expect(await errors.textContent()).toContain('/headline')
      // The preview of the invalid draft says so (409, not "Internal Server Error"), with the errors.
      const src = (await page.getByTestId('preview-frame').getAttribute('src')) ?? ''
      const preview = await ed.newPage()
      expect((await preview.goto(src))?.status()).toBe(409)
      expect(await preview.locator('h1').first().textContent()).toBe('This draft does not validate')
      expect(await preview.content()).not.toContain('Internal Server Error')
      expect(await preview.getByTestId('preview-problems').textContent()).toMatch(
        /definitions\/pages\/grocery\.json line \d+, \/headline: /,
      )
      expect(await preview.getByRole('link', { name: 'Back to the editor' }).getAttribute('href')).toContain(
        '/pages/grocery?branch=broken&tab=source',
      )
      const shots = process.env.CC_SCREENSHOTS
      if (shots)
        for (const width of [1280, 375]) {
          mkdirSync(shots, { recursive: true })
          await preview.setViewportSize({ width, height: 812 })
          await preview.screenshot({
            path: join(shots, `${width}_preview_invalid_draft.png`),
            fullPage: true,
          })
        }
      await preview.close()
      // The error sits on the headline's line in the editor (a lint mark in the text).
      await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBeGreaterThan(0)
      const marked = await page.locator('.cm-line:has(.cm-lintRange-error)').first().textContent()
      expect(marked).toContain('"headline": 42')
      const dialog = await commitWithMessage(
        page,
        page.getByRole('button', { name: 'Commit' }),
        'Broken on purpose',
      )
      await dialog.waitFor({ state: 'hidden' })
      await ed.close()

      const pub = await signedIn('pub@x.test')
      const pp = await pub.newPage()
      await openScreen(pp, '/branches/broken')
      const button = pp.getByRole('button', { name: 'Publish now' })
      // Disabled from the first paint: while the checks run, then because they found problems.
      expect(await button.isDisabled()).toBe(true)
      await expect
        .poll(
          () =>
            pp
              .locator('#cc-publish-blocked')
              .textContent()
              .catch(() => ''),
          { timeout: 15_000 },
        )
        .toMatch(/Checks found \d+ problem/)
      expect(await button.isDisabled()).toBe(true)
      await pp.getByRole('tab', { name: /Checks/ }).click()
      expect(await pp.getByTestId('errors').textContent()).toContain('/headline')
      await pub.close()
    },
    FLOW_MS,
  )

  it(
    'a 401 while editing opens the re-login dialog and the change is saved after signing in again',
    async () => {
      const context = await signedIn('ed@x.test')
      const page = await context.newPage()
      await openScreen(page, '/pages/grocery?branch=spring-promo&tab=source')
      const before = await serverText(page)
      // The session ends behind the editor's back (signed out elsewhere with the same session).
      expect((await api(context, 'DELETE', '/api/_auth/session')).status).toBe(200)
      await typeSource(
        page,
        (t) => t.replace(/"headline": "[^"]*"/, '"headline": "Kept through a sign-in"'),
        before,
      )
      const dialog = page.getByRole('dialog', { name: 'Your session ended' })
      await dialog.waitFor({ timeout: 15_000 })
      expect(
        await page.evaluate(() =>
          localStorage.getItem(`fw-cc-unsaved:spring-promo:definitions/pages/grocery.json`),
        ),
      ).toContain('Kept through a sign-in')
      await dialog.getByLabel('E-mail').fill('ed@x.test')
      await dialog.getByLabel('Password').fill(PASSWORD)
      await dialog.getByRole('button', { name: 'Sign in' }).click()
      await expect
        .poll(() => page.getByTestId('save-state').textContent(), { timeout: 15_000 })
        .toBe('Draft saved')
      const file = await api(context, 'GET', `/api/cc/branches/spring-promo/file?path=${GROCERY}`)
      expect(file.body.draft.text).toContain('Kept through a sign-in')
      await context.close()
    },
    FLOW_MS,
  )

  it(
    'keyboard: tabs move with the arrow keys; a dialog keeps focus inside and Escape closes it, focus back on its button',
    async () => {
      const context = await signedIn('pub@x.test')
      const page = await context.newPage()
      await openScreen(page, '/branches')
      await page.getByRole('tab', { name: 'Branches' }).focus()
      await page.keyboard.press('ArrowRight')
      expect(await page.getByRole('tab', { name: 'Live history' }).getAttribute('aria-selected')).toBe('true')
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Live history')
      await page.keyboard.press('End')
      expect(await page.getByRole('tab', { name: 'Activity' }).getAttribute('aria-selected')).toBe('true')
      const opener = page.getByRole('button', { name: 'New branch' })
      await opener.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: 'New branch' })
      await dialog.waitFor()
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab')
        expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true)
      }
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden' })
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New branch')
      await context.close()
    },
    FLOW_MS,
  )
})

describe('axe on every control-center screen at 1280 and 375 px', () => {
  // The articles, images, phone-rules file and content-factory screens are checked at both widths
  // (axe, sideways scrolling, the one-row header) by their own files, with data on them:
  // cc-articles, cc-images, cc-phone-rules, cc-content-factory.
  const SCREENS = [
    '/branches',
    '/branches?tab=history',
    '/branches?tab=activity',
    '/branches/spring-promo',
    '/branches/spring-promo?tab=checks',
    '/branches/spring-promo?tab=review',
    '/branches/spring-promo?tab=history',
    '/pages?branch=spring-promo',
    '/pages/grocery?branch=spring-promo',
    '/pages/grocery?branch=spring-promo&tab=history',
    '/experiments?branch=live',
    '/experiments/grocery-headline?branch=live',
    '/phone-rules?branch=live',
  ]
  const WIDTHS = [1280, 375] as const
  /** axe and sideways scroll at every width, on one load of the page (a resize, not a reload). */
  async function check(page: Page, name: string, problems: string[], shots?: string) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      for (const v of await seriousViolations(page)) problems.push(`${width} px ${name}: ${v}`)
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      )
      if (overflow > 0) problems.push(`${width} px ${name}: scrolls sideways by ${overflow} px`)
      const header = await headerTooHigh(page)
      if (header) problems.push(`${width} px ${name}: ${header}`)
      if (shots)
        await page.screenshot({
          path: join(shots, `${width}${name.replace(/[^a-z0-9]+/gi, '_')}.png`),
          fullPage: true,
        })
    }
  }
  it(
    'at 375 px the header menu opens from the keyboard, Escape closes it and focus returns to Menu',
    async () => {
      const context = await signedIn('ed@x.test', 375)
      const page = await context.newPage()
      await openScreen(page, '/pages?branch=live')
      const menu = page.getByTestId('cc-menu')
      expect(await page.getByRole('link', { name: 'Experiments' }).isVisible()).toBe(false)
      await menu.focus()
      await page.keyboard.press('Enter')
      expect(await menu.getAttribute('aria-expanded')).toBe('true')
      expect(await page.getByRole('link', { name: 'Experiments' }).isVisible()).toBe(true)
      // Focus moved into the menu; Tab walks it.
      expect(await page.evaluate(() => !!document.activeElement?.closest('#cc-header-menu'))).toBe(true)
      await page.keyboard.press('Escape')
      expect(await menu.getAttribute('aria-expanded')).toBe('false')
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('cc-menu')
      expect(await page.getByRole('link', { name: 'Experiments' }).isVisible()).toBe(false)
      await context.close()
    },
    FLOW_MS,
  )

  it(`every screen, the sign-in panel and the New branch dialog at ${WIDTHS.join(' and ')} px`, async () => {
    const shots = process.env.CC_SCREENSHOTS
    if (shots) mkdirSync(shots, { recursive: true })
    const problems: string[] = []
    const anonymous = await newContext()
    const signIn = await anonymous.newPage()
    await signIn.goto(`${cc}/branches`)
    await check(signIn, 'sign-in', problems, shots)
    await anonymous.close()
    const context = await signedIn('pub@x.test')
    // Three pages at a time: the machine is shared.
    for (let i = 0; i < SCREENS.length; i += 3) {
      await Promise.all(
        SCREENS.slice(i, i + 3).map(async (path) => {
          const page = await context.newPage()
          await openScreen(page, path)
          await check(page, path, problems, shots)
          await page.close()
        }),
      )
    }
    const page = await context.newPage()
    await openScreen(page, '/branches')
    await page.getByRole('button', { name: 'New branch' }).click()
    await page.getByRole('dialog', { name: 'New branch' }).waitFor()
    await check(page, 'New branch dialog', problems, shots)
    expect(problems).toEqual([])
    await context.close()
    // Staff screens are not visitor page views (issue 28, defect 8): nothing of the browsing above
    // reached the event stream, where it showed as page views of `error-200` / `error-401`.
    const events = await opsClient(session.dataDir).latestEvents(500)
    expect(
      events.filter((e) => e.brand_id === 'ccc' || /^error-(200|401)$/.test(e.name)).map((e) => e.name),
    ).toEqual([])
  }, 420_000)
})
