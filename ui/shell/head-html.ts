import { dangerouslySkipEscape, escapeInject } from 'vike/server'
import type { Resolution } from '../../engine/render/resolution'
import { documentTitle, htmlLang } from '../../engine/render/site-name'

export function themeStyle(r: Resolution): string {
  const t = r.brand?.theme
  if (!t) return ''
  return `--brand-primary:${t.primary};--brand-on-primary:${t.onPrimary};--brand-accent:${t.accent};--brand-surface:${t.surface};--brand-ink:${t.ink}`
}

export function headParts(r: Resolution) {
  const page = r.page
  const title = documentTitle(page?.title ?? (r.error ? r.error.statusMessage : undefined), r.site.name)
  const gtmId = r.site.gtmId
  const tm = r.thirdParty.tagManagerUrl
  const gtmSnippet = `window.dataLayer=window.dataLayer||[];window.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});`
  return {
    lang: htmlLang(page?.language),
    title,
    description: page?.description ?? '',
    robots: page?.indexable ? null : 'noindex, nofollow',
    favicon: r.site.faviconSrc,
    gtmInline: dangerouslySkipEscape(gtmSnippet),
    gtmSrc: `${tm}/gtm.js?id=${encodeURIComponent(gtmId)}`,
    gtmNoscript: `${tm}/ns.html?id=${encodeURIComponent(gtmId)}`,
    adScript: r.thirdParty.adScriptUrl,
  }
}

export { dangerouslySkipEscape, escapeInject }
