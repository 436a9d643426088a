import { renderToString } from 'react-dom/server'
import type { PageContextServer } from 'vike/types'
import { colorModeInlineScript } from '../../engine/color-mode/inline-script'
import { errorInfo } from '../../engine/render/error-info'
import type { Resolution } from '../../engine/render/resolution'
import { RESOLUTION_SCRIPT_ID, serializeForScript } from '../../engine/render/resolution-script'
import { dangerouslySkipEscape, escapeInject, headParts, themeStyle } from '../shell/head-html'
import { Shell } from '../shell/Shell'

/** Renders the document: per-brand <head>, the tag-manager noscript first in <body>, then the app. */
export default function onRenderHtml(pageContext: PageContextServer) {
  const resolution = resolutionFor(pageContext)
  const Page = pageContext.Page as () => React.ReactNode
  const appHtml = renderToString(
    <Shell resolution={resolution}>
      <Page />
    </Shell>,
  )
  const h = headParts(resolution)
  const style = themeStyle(resolution)
  const robots = h.robots ? escapeInject`<meta name="robots" content="${h.robots}">` : ''
  const description = h.description ? escapeInject`<meta name="description" content="${h.description}">` : ''
  // Applied before first paint, so a dark-mode visitor never sees a light flash (docs/decisions/0501).
  const colorMode = dangerouslySkipEscape(colorModeInlineScript(resolution.page?.colorMode))
  const image = resolution.page?.image
  const preloadHero = image
    ? escapeInject`<link rel="preload" as="image" href="${image.src}" fetchpriority="high">`
    : ''
  // What the client entry hydrates from (ui/pages/hydrate.tsx); escaped so no text can close the script.
  // A funnel step's answers are in its inputs only: never copied into the script (docs/decisions/0524).
  const data = dangerouslySkipEscape(serializeForScript({ ...resolution, funnelPost: undefined }))
  // Every script we write carries the response's CSP nonce (server/http/security-headers.ts).
  const nonce = pageContext.cspNonce ?? ''
  const adScript =
    h.adScript && h.tags ? escapeInject`<script async src="${h.adScript}" nonce="${nonce}"></script>` : ''
  const tagManager = h.tags
    ? escapeInject`<script nonce="${nonce}">${h.gtmInline}</script>
<script async src="${h.gtmSrc}" nonce="${nonce}"></script>`
    : ''
  const tagManagerNoscript = h.tags
    ? escapeInject`<noscript><iframe src="${h.gtmNoscript}" height="0" width="0" style="display:none;visibility:hidden" title="Tag manager"></iframe></noscript>`
    : ''
  const documentHtml = escapeInject`<!DOCTYPE html>
<html lang="${h.lang}" data-brand="${resolution.brand?.id ?? ''}" style="${style}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<script nonce="${nonce}">${colorMode}</script>
<title>${h.title}</title>
${description}
${robots}
<link rel="icon" href="${h.favicon}" type="image/svg+xml">
${preloadHero}
<meta name="theme-color" content="${resolution.brand?.theme.primary ?? '#333a45'}">
${tagManager}
${adScript}
</head>
<body>${tagManagerNoscript}<div id="root">${dangerouslySkipEscape(appHtml)}</div>
<script id="${RESOLUTION_SCRIPT_ID}" type="application/json">${data}</script></body>
</html>`
  return { documentHtml }
}

/** Vike's own error page (a render that threw) still needs a resolution: the server-error variant. */
function resolutionFor(pageContext: PageContextServer): Resolution {
  const r = pageContext.resolution
  if (!r) throw new Error('render called without a resolution (the Koa server must supply one)')
  if (pageContext.is404 !== true && !pageContext.errorWhileRendering) return r
  if (r.view === 'error') return r
  const info = errorInfo(pageContext.is404 ? 404 : 500)
  return { ...r, view: 'error', pageId: 'error', statusCode: info.statusCode, page: null, error: info }
}
