/** Debian's Chromium driven by playwright-core, with third-party hosts answered locally. */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

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

export async function launchBrowser(): Promise<Browser> {
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
