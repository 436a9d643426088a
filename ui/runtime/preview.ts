/**
 * The browser side of a staff preview (docs/decisions/0601): every same-origin navigation keeps
 * `branch` and the grant, links included; the control center may ask the preview to reload after
 * an autosave (`{type: 'fw:reload'}`), and only the control center may.
 */
import type { PreviewInfo } from '../../engine/render/resolution'
import { keepPreview } from './keep-preview'

export function startPreview(info: PreviewInfo): void {
  // Plain links too: a click through the preview stays in the preview.
  document.addEventListener(
    'click',
    (e) => {
      const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (!a || a.dataset.previewExit !== undefined) return
      const href = a.getAttribute('href')!
      if (href.startsWith('#')) return
      a.setAttribute('href', keepPreview(href))
    },
    true,
  )
  const controlCenter = info.controlCenterUrl ? new URL(info.controlCenterUrl).origin : null
  window.addEventListener('message', (e) => {
    if (!controlCenter || e.origin !== controlCenter) return
    if ((e.data as { type?: string } | null)?.type === 'fw:reload') location.reload()
  })
}
