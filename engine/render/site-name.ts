import type { Brand, PageEntry, SiteConfig } from '../snapshot/types'

/** The brand's display name; `{product}` is filled from the page (brand `emily`). */
export function siteNameFor(
  site: Pick<SiteConfig, 'name'>,
  brand: Brand | null,
  page: Pick<PageEntry, 'product'> | null,
): string {
  if (!brand) return site.name
  if (!brand.name.includes('{product}')) return brand.name
  if (page?.product) return brand.name.replaceAll('{product}', page.product)
  return brand.fallbackName ?? site.name
}

/** Spec point 1: 'page title - site name', or only the site name when there is no page title. */
export function documentTitle(pageTitle: string | undefined | null, siteName: string): string {
  const t = pageTitle?.trim()
  // A page titled like its site (the control center's home) is not "X - X".
  return t && t.toLowerCase() !== siteName.trim().toLowerCase() ? `${t} - ${siteName}` : siteName
}

export function htmlLang(language: string | undefined): string {
  return language === 'es' ? 'es' : 'en'
}
