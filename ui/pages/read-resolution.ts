import type { Resolution } from '../../engine/render/resolution'
import { RESOLUTION_SCRIPT_ID } from '../../engine/render/resolution-script'

/**
 * The page's resolution from the JSON script +onRenderHtml wrote, with the browser's query string
 * (the server renders without it: its HTML is cached per route). Throws when #root or the script is
 * missing: the page cannot start (spec point 8).
 */
export function readResolution(doc: Pick<Document, 'getElementById'>): {
  root: HTMLElement
  resolution: Resolution
} {
  const root = doc.getElementById('root')
  const data = doc.getElementById(RESOLUTION_SCRIPT_ID)?.textContent
  if (!root || !data) throw new Error('Cannot mount: #root or the page resolution is missing')
  return { root, resolution: { ...(JSON.parse(data) as Resolution), search: location.search } }
}
