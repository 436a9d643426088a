/**
 * Security headers and the CSP in a real browser (issue 12): every kind of answer carries its headers,
 * each uncached HTML response its own nonce and each cached page its entry's (docs/decisions/0530), and
 * under the CSP the tag manager, the scripts it loads itself, and the ad script still run with no
 * violation in the console.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { PUBLIC_HTML_CACHE_CONTROL } from '../../engine/constants'
import { brandUrl, launchBrowser, newPage, THIRD_PARTY_HOSTS } from './browser'
import { httpGet } from './http'
import { PROJECT_ROOT } from './server-process'

const port = inject('port')

let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext()
  // Stand-ins that behave like the real third parties: the tag manager loads a tag of its own.
  await context.route(THIRD_PARTY_HOSTS, (route) => {
    const url = route.request().url()
    const js = (body: string) => route.fulfill({ status: 200, contentType: 'text/javascript', body })
    if (url.includes('/gtm.js'))
      return js(
        "window.__tagManager='loaded';var s=document.createElement('script');s.src='https://www.googletagmanager.com/gtag/js?id=G-1';document.head.appendChild(s);",
      )
    if (url.includes('/gtag/js')) return js("window.__tagManagerTag='loaded'")
    if (url.includes('mediaalpha.com/js/serve.js')) return js("window.__adScript='loaded'")
    if (url.includes('ns.html'))
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>tm</title>',
      })
    return js('/* third-party stand-in */')
  })
  await context.addInitScript(() => {
    ;(window as unknown as { __violations: string[] }).__violations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __violations: string[] }).__violations.push(
        `${e.violatedDirective} ${e.blockedURI}`,
      ),
    )
  })
})
afterAll(async () => {
  await browser?.close()
})

const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1]

describe('headers by kind of answer', () => {
  it('a page: CSP with a nonce the HTML carries — fresh per response, fixed per entry when cached (0530)', async () => {
    const check = (r: Awaited<ReturnType<typeof httpGet>>) => {
      const csp = String(r.headers['content-security-policy'])
      expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9_-]{22}' 'strict-dynamic'/)
      expect(csp).toMatch(/object-src 'none'/)
      expect(r.headers['x-content-type-options']).toBe('nosniff')
      expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      const nonce = nonceOf(csp)!
      // Every script in the document carries it; the JSON data block needs none.
      for (const tag of r.body.match(/<script\b[^>]*>/g) ?? [])
        if (!tag.includes('application/json')) expect(tag).toContain(`nonce="${nonce}"`)
      expect(r.body).not.toContain('fwCspNonce')
      return nonce
    }
    const first = await httpGet(port, '/', 'm10.localhost')
    const second = await httpGet(port, '/', 'm10.localhost')
    expect(second.headers['x-html-cache']).toBe('hit')
    for (const r of [first, second])
      expect(String(r.headers['content-security-policy'])).toMatch(/frame-ancestors 'self' /)
    // A cached page is the same bytes for everyone: its entry's nonce, which no other page shares.
    expect(check(second)).toBe(check(first))
    expect(check(await httpGet(port, '/privacy', 'm10.localhost'))).not.toBe(check(first))
    expect(check(await httpGet(port, '/', 'bh.localhost'))).not.toBe(check(first))
    // An answer that is not cached (an error page) gets a fresh nonce every time.
    const errors = [0, 1].map(() => httpGet(port, '/no/such/page', 'm10.localhost'))
    const [e1, e2] = await Promise.all(errors)
    expect(e1!.status).toBe(404)
    expect(check(e1!)).not.toBe(check(e2!))
  })

  it('a public page: an ETag per snapshot and page, a 304 for a browser or cache that has it, and a shared cache may keep it', async () => {
    const first = await httpGet(port, '/privacy', 'm10.localhost')
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect(first.headers['cache-control']).toBe(PUBLIC_HTML_CACHE_CONTROL)
    expect(PUBLIC_HTML_CACHE_CONTROL).toMatch(/s-maxage=\d+, stale-while-revalidate=\d+/)
    // Same page, same snapshot, another response (another nonce): the same tag.
    const again = await httpGet(port, '/privacy', 'm10.localhost')
    expect(again.headers.etag).toBe(etag)
    for (const asked of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const r = await httpGet(port, '/privacy', 'm10.localhost', { 'if-none-match': asked })
      expect(r.status, asked).toBe(304)
      expect(r.body).toBe('')
      expect(r.headers.etag).toBe(etag)
      expect(r.headers['cache-control']).toBe(PUBLIC_HTML_CACHE_CONTROL)
    }
    const stale = await httpGet(port, '/privacy', 'm10.localhost', { 'if-none-match': '"other"' })
    expect(stale.status).toBe(200)
    expect(stale.body).toContain('</html>')
    // Another brand's page at the same path is another entity.
    expect((await httpGet(port, '/privacy', 'bh.localhost')).headers.etag).not.toBe(etag)
  })

  it('the control center may be framed by itself only', async () => {
    const r = await httpGet(port, '/', 'ccc.localhost')
    expect(String(r.headers['content-security-policy'])).toMatch(/frame-ancestors 'self'(;|$)/)
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN')
  })

  it('an API answer, the page payload and an asset: nosniff and a CSP that allows nothing', async () => {
    const dir = join(PROJECT_ROOT, 'dist', 'client', 'assets', 'entries')
    const asset = `/assets/entries/${readdirSync(dir).find((f) => f.endsWith('.js'))}`
    for (const path of ['/api/ip', '/quiz/otc/1/_payload.json', asset]) {
      const r = await httpGet(port, path, 'm10.localhost')
      expect(r.status, path).toBe(200)
      expect(r.headers['x-content-type-options'], path).toBe('nosniff')
      expect(r.headers['content-security-policy'], path).toBe("default-src 'none'; frame-ancestors 'none'")
    }
  })
})

describe('under the CSP in Chromium', () => {
  for (const [brand, path] of [
    ['m10', '/'],
    ['m10', '/quiz/otc/1'],
    ['ccc', '/'],
  ])
    it(`${brand}${path}: the app hydrates, tag manager (and its own tag) and ad script load, no violation`, async () => {
      const { page, consoleErrors, pageErrors } = await newPage(context)
      try {
        await page.goto(brandUrl(brand, port, path), { waitUntil: 'load' })
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
        await page.waitForFunction(() => (window as unknown as { __tagManagerTag?: string }).__tagManagerTag)
        const state = await page.evaluate(() => {
          const w = window as unknown as Record<string, unknown>
          return { tm: w.__tagManager, tag: w.__tagManagerTag, ad: w.__adScript, violations: w.__violations }
        })
        // The control center loads no insurance ad script.
        expect(state).toEqual({
          tm: 'loaded',
          tag: 'loaded',
          ad: brand === 'ccc' ? undefined : 'loaded',
          violations: [],
        })
        expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([])
        expect(pageErrors).toEqual([])
        // Hydrated: the client entry (loaded under the nonce) and its chunks ran.
        await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
        if (brand === 'm10' && path === '/') {
          // The CSP is really in force: an injected inline script without the nonce does not run.
          await page.goto(brandUrl(brand, port, '/'), { waitUntil: 'load' })
          const injected = await page.evaluate(async () => {
            const w = window as unknown as Record<string, unknown>
            const div = document.createElement('div')
            div.innerHTML = '<img src="x" onerror="window.__injected=1">'
            document.body.append(div)
            await new Promise((r) => setTimeout(r, 300))
            return { ran: w.__injected, violations: (w.__violations as string[]).length }
          })
          expect(injected.ran).toBeUndefined()
          expect(injected.violations).toBeGreaterThan(0)
        }
      } finally {
        await page.close()
      }
    })
})
