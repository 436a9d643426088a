import type { Middleware } from 'koa'
import type { Snapshot } from '../../engine/snapshot/types'
import { originOf } from '../http/request-client'

/**
 * /robots.txt and /sitemap.xml per brand: the sitemap lists the brand's indexable pages with a fixed
 * path (parameterised routes are reached through links), robots.txt points at it.
 */
export function seoFiles(getSnapshot: () => Snapshot): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    if (ctx.path !== '/robots.txt' && ctx.path !== '/sitemap.xml') return next()
    const snapshot = getSnapshot()
    const brandId: string | null = ctx.state.brandId
    if (!brandId) return next()
    const brand = snapshot.brands.get(brandId)!
    const origin = originOf(ctx)
    ctx.set('Cache-Control', 'public, max-age=3600')
    if (ctx.path === '/robots.txt') {
      ctx.type = 'text/plain; charset=utf-8'
      ctx.body =
        brand.vertical === 'internal'
          ? 'User-agent: *\nDisallow: /\n'
          : `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`
      return
    }
    const paths = (snapshot.routes.get(brandId) ?? [])
      .map((r) => ({ r, page: snapshot.pages.get(r.pageKey)! }))
      .filter(
        ({ r, page }) =>
          page.indexable &&
          brand.vertical !== 'internal' &&
          r.pattern.segments.every((s) => s.kind === 'static' || (s.kind === 'param' && s.optional)),
      )
      .map(
        ({ r }) =>
          `/${r.pattern.segments
            .filter((s) => s.kind === 'static')
            .map((s) => (s as { value: string }).value)
            .join('/')}`,
      )
    const unique = [...new Set(paths)].sort()
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')
    ctx.type = 'application/xml; charset=utf-8'
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${unique.map((p) => `  <url><loc>${esc(origin + p)}</loc></url>`).join('\n')}\n</urlset>\n`
  }
}
