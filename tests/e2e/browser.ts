/** Debian's Chromium driven by playwright-core, with third-party hosts answered locally. */
import { type Browser, type BrowserContext, type BrowserServer, chromium, type Page } from 'playwright-core'

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/**
 * The e2e run's one Chromium (the e2e global setup starts it; the setup file hands its address to
 * each file): starting Chromium costs a file 1–3 s on a busy 2-core machine, and every file used to
 * start its own.
 */
export const BROWSER_WS_ENV = 'FW_E2E_BROWSER_WS'

/** Chromium as a server that test files connect to (the e2e global setup). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
}

/**
 * A browser: in the e2e run a connection to the run's Chromium (its `close()` closes the contexts
 * this connection opened and disconnects), elsewhere (benches) a Chromium of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[BROWSER_WS_ENV]
  if (shared) return chromium.connect(shared)
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })
}

/** Hosts we cannot reach here: tag manager, ad-serving script, bot-detection CDN. */
export const THIRD_PARTY_HOSTS =
  /^https:\/\/([^/]*\.)?(googletagmanager\.com|google-analytics\.com|mediaalpha\.com|fpjs\.io|fpnpmcdn\.net|openfpcdn\.io)\//

/** Answers third-party requests locally so pages neither hang nor fail on them. */
export async function routeThirdParties(context: BrowserContext): Promise<void> {
  await context.route(THIRD_PARTY_HOSTS, (route) => {
    const url = route.request().url()
    if (url.includes('ns.html'))
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>tm</title>',
      })
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: '/* third-party stand-in */' })
  })
}

export interface PageWithLogs {
  page: Page
  consoleErrors: string[]
  pageErrors: string[]
}

export async function newPage(context: BrowserContext): Promise<PageWithLogs> {
  const page = await context.newPage()
  const consoleErrors: string[] = []
  const pageErrors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  return { page, consoleErrors, pageErrors }
}

export function brandUrl(brand: string, port: number, path = '/'): string {
  return `http://${brand}.localhost:${port}${path}`
}
