import type { PageContext } from 'vike/types'

/**
 * Content pages are one Vike page per template (docs/decisions/0507), so a landing page never
 * downloads the legal or article templates. These templates have their own page folder
 * (`ui/pages/content-<template>/`); every other content template renders through `ui/pages/content/`.
 */
export const OWN_PAGE_TEMPLATES = [
  'home',
  'legal',
  'review',
  'article',
  'article-index',
  'thank-you',
] as const

const templateOf = (pageContext: PageContext) =>
  pageContext.resolution?.view === 'content' ? (pageContext.resolution.page?.template ?? null) : undefined

/** The route function of `ui/pages/content-<template>/`. */
export const contentRoute = (template: (typeof OWN_PAGE_TEMPLATES)[number]) => (pageContext: PageContext) =>
  templateOf(pageContext) === template

/** The route function of `ui/pages/content/`: every content page whose template has no folder of its own. */
export const defaultContentRoute = (pageContext: PageContext) => {
  const template = templateOf(pageContext)
  return template !== undefined && !(OWN_PAGE_TEMPLATES as readonly (string | null)[]).includes(template)
}
