import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { consentForPage } from '../../engine/consent/consent-for-page'
import type { Resolution } from '../../engine/render/resolution'
import { funnelCatalogue, loadSnapshot } from '../../tests/model/funnel-catalogue'
import { FunnelForm } from './FunnelForm'

const snapshot = loadSnapshot()
const catalogue = funnelCatalogue(snapshot)
const withPages = catalogue.find((c) => c.pages.length > 0)!
const first = { funnel: withPages.funnel, page: withPages.pages[0] }
const { funnel } = first
const page = first.page

/** The server render: no window, no storage — it must not need either. */
function render(
  pathname: string,
  params: Record<string, string>,
  { funnel, page } = { funnel: first.funnel, page: first.page },
  funnelPost?: Resolution['funnelPost'],
): string {
  const brand = snapshot.brands.get(page.brands[0])!
  const resolution: Resolution = {
    view: 'funnel',
    pageId: 'funnel',
    statusCode: 200,
    snapshotId: snapshot.id,
    site: { name: brand.name, faviconSrc: brand.favicon.src, gtmId: 'GTM-XXXX' },
    brand,
    page,
    params,
    pathname,
    search: '?utm_source=x',
    funnel,
    consent: consentForPage(snapshot, page, brand),
    thirdParty: { tagManagerUrl: 'https://tm.example', adScriptUrl: null },
    funnelPost,
  }
  return renderToString(<FunnelForm resolution={resolution} funnel={funnel} />)
}

const base = page.path.replace(/\/\{[^}]+\?\}$/, '')

describe('FunnelForm server render', () => {
  it('renders the first step for a missing or unknown step (the browser fixes the URL)', () => {
    for (const html of [render(base, {}), render(`${base}/nonsense`, { step: 'nonsense' })]) {
      expect(html).toContain(`data-step="${funnel.steps[0].name}"`)
      expect(html).toContain(`Step 1 of ${funnel.steps.length}`)
      expect(html).toContain('data-live="false"')
    }
  })

  it('renders the named step as a form that posts to its own URL, with labels and autofill', () => {
    const last = funnel.steps.at(-1)!
    const html = render(`${base}/${last.name}`, { step: last.name })
    expect(html).toContain(`data-step="${last.name}"`)
    expect(html).toContain('method="post"')
    expect(html).not.toContain(' action=')
    expect(html).not.toContain('<noscript>')
    for (const f of last.fields) expect(html).toContain(f.label)
    if (last.fields.some((f) => f.kind === 'tel')) {
      expect(html).toContain('data-testid="tcpa-consent"')
      expect(html).toContain('autoComplete="tel-national"')
    }
  })
})

describe('Start over (docs/decisions/0234)', () => {
  const startOver =
    /<button type="submit" value="restart" class="link-button funnel-restart" name="_action">([^<]+)<\/button>/
  it('shows on a step past the first rendered with the answers the server holds, as a plain submit', () => {
    const second = funnel.steps[1]
    const held = (stepIndex: number) => ({ stepIndex, values: {}, errors: {} })
    const html = render(`${base}/${second.name}`, { step: second.name }, first, held(1))
    expect(startOver.exec(html)?.[1]).toBe(funnel.text.funnel.startOver)
    // Inside the step's form: it posts without JavaScript.
    expect(html.indexOf('funnel-restart')).toBeLessThan(html.indexOf('</form>'))
    // The page everybody gets, and the first step, show none.
    expect(render(`${base}/${second.name}`, { step: second.name })).not.toContain('funnel-restart')
    expect(render(base, {}, first, held(0))).not.toContain('funnel-restart')
  })
})

describe('a Spanish funnel (issue 18)', () => {
  it('draws its words from definitions/ui-text/es.json', () => {
    const es = catalogue.find((c) => c.funnel.language === 'es' && c.pages.length > 0)!
    const esPage = es.pages[0]
    const html = render(esPage.path.replace(/\/\{[^}]+\?\}$/, ''), {}, { funnel: es.funnel, page: esPage })
    expect(html).toContain(`Paso 1 de ${es.funnel.steps.length}`)
    expect(html).toContain('aria-label="Progreso del formulario"')
    for (const english of ['Step ', 'Form progress', 'needs JavaScript', 'Continue'])
      expect(html).not.toContain(english)
  })
})
