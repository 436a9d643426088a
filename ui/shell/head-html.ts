import { dangerouslySkipEscape, escapeInject } from 'vike/server'
import { SCROLL_HASH_OFFSET_PX } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'
import { documentTitle, htmlLang } from '../../engine/render/site-name'

export function themeStyle(r: Resolution): string {
  // Every hash anchor lands below the sticky header (spec point 2), also when the browser itself
  // scrolls to it (a link to #faq, a URL with a hash), with no script.
  const scroll = `scroll-padding-top:${SCROLL_HASH_OFFSET_PX}px`
  const t = r.brand?.theme
  if (!t) return scroll
  return `${scroll};--brand-primary:${t.primary};--brand-on-primary:${t.onPrimary};--brand-accent:${t.accent};--brand-surface:${t.surface};--brand-ink:${t.ink}`
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
    robots: page?.indexable && !r.preview ? null : 'noindex, nofollow',
    // A staff preview loads no third-party tags (docs/decisions/0601).
    tags: !r.preview,
    favicon: r.site.faviconSrc,
    gtmInline: dangerouslySkipEscape(gtmSnippet),
    gtmSrc: `${tm}/gtm.js?id=${encodeURIComponent(gtmId)}`,
    gtmNoscript: `${tm}/ns.html?id=${encodeURIComponent(gtmId)}`,
    adScript: r.thirdParty.adScriptUrl,
  }
}

export { dangerouslySkipEscape, escapeInject }
