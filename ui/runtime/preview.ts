/**
 * The browser side of a staff preview (docs/decisions/0601): every same-origin navigation keeps
 * `branch` and the grant, links included; the control center may ask the preview to reload after
 * an autosave (`{type: 'fw:reload'}`), and only the control center may. In Select mode
 * (`{type: 'fw:select', on}`) a click does not follow links or press buttons: it outlines and
 * sends the clicked text (and its parents' texts) to the control center, which focuses that field.
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
  let selecting = false
  let hovered: HTMLElement | null = null
  const outline = (el: HTMLElement | null) => {
    if (hovered) hovered.style.outline = ''
    hovered = el
    if (el) el.style.outline = '2px dashed #1d4ed8'
  }
  document.addEventListener(
    'mouseover',
    (e) => {
      if (selecting) outline(e.target instanceof HTMLElement ? e.target : null)
    },
    true,
  )
  document.addEventListener(
    'click',
    (e) => {
      if (!selecting || !controlCenter || !window.parent) return
      e.preventDefault()
      e.stopPropagation()
      const texts: string[] = []
      for (
        let el = e.target as HTMLElement | null;
        el && el !== document.body && texts.length < 4;
        el = el.parentElement
      )
        // textContent, not innerText: CSS may show a text in capitals; the field holds it as typed.
        if (el.textContent?.trim()) texts.push(el.textContent.trim().slice(0, 2000))
      window.parent.postMessage({ type: 'fw:selected', texts }, controlCenter)
    },
    true,
  )
  window.addEventListener('message', (e) => {
    if (!controlCenter || e.origin !== controlCenter) return
    const data = e.data as { type?: string; on?: unknown } | null
    if (data?.type === 'fw:reload') location.reload()
    // A text typed in the control center, shown before the autosave's reload renders it for real.
    const patch = e.data as { type?: string; from?: unknown; to?: unknown }
    if (patch?.type === 'fw:patch' && typeof patch.from === 'string' && typeof patch.to === 'string') {
      const from = patch.from.trim()
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      for (let n = walker.nextNode(); n; n = walker.nextNode())
        if (n.nodeValue?.trim() === from) n.nodeValue = patch.to
    }
    if (data?.type === 'fw:select') {
      selecting = data.on === true
      document.documentElement.style.cursor = selecting ? 'crosshair' : ''
      if (!selecting) outline(null)
    }
  })
  // Listening now: the control center may send what it kept while the page loaded.
  if (controlCenter && window.parent !== window)
    window.parent.postMessage({ type: 'fw:ready' }, controlCenter)
}
