/**
 * The islands of the page shell (header, footer, hero), shared by the static templates
 * (start-islands.ts, docs/decisions/0520) and funnel steps, which hydrate only their form
 * (ui/pages/funnel/hydrate-form.tsx, docs/decisions/0522). The server markup marks each with
 * `data-island`.
 */
import type { Resolution } from '../../engine/render/resolution'
import { mountPhone } from '../phone/phone-dom'
import type { ClientRuntime } from '../runtime/client-runtime'
import { mountColorMode } from './color-mode-island'
import { mountMenu } from './menu-island'

/** The element of an island in the page, or null when the page has none. */
export function islandIn<T extends Element>(root: ParentNode, name: string): T | null {
  return root.querySelector<T>(`[data-island="${name}"]`)
}

/** The header's menu button: needs no runtime, so it works at once. */
export function mountMenuIsland(root: ParentNode, doc: Document = document): void {
  const menu = islandIn<HTMLButtonElement>(root, 'menu')
  if (menu) mountMenu(menu, doc)
}

/** The islands that follow the runtime: the footer's colour-mode select and the phone number slots. */
export function mountRuntimeIslands(
  root: ParentNode,
  resolution: Resolution,
  runtime: ClientRuntime,
  doc: Document = document,
): void {
  const select = islandIn<HTMLSelectElement>(root, 'color-mode')
  if (select) mountColorMode(select, runtime.colorMode)
  mountPhone(
    { header: islandIn(root, 'header-phone'), cta: islandIn(root, 'phone-cta') },
    runtime.phone,
    resolution.page?.language === 'es',
    doc,
  )
}
