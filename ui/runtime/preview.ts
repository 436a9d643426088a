/**
 * The browser side of a staff preview (docs/decisions/0601): every same-origin navigation keeps
 * `branch` and the grant, links included; the control center may ask the preview to reload after
 * an autosave (`{type: 'fw:reload'}`), and only the control center may. In Select mode
 * (`{type: 'fw:select', on}`) a click does not follow links or press buttons: it outlines and
 * sends the JSON pointer of the clicked field (and the clicked texts) to the control center, which
 * focuses the form element of that pointer (docs/decisions/0987).
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
  /** The document's text fields by JSON pointer, as the control center sends them with Select. */
  let fields: Field[] = []
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
      const pointer = pointerOf(e.target as HTMLElement | null, fields)
      window.parent.postMessage({ type: 'fw:selected', pointer, texts }, controlCenter)
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
      const given = (e.data as { fields?: unknown }).fields
      if (Array.isArray(given))
        fields = given.filter(
          (f): f is Field => typeof f?.pointer === 'string' && typeof f?.text === 'string',
        )
      document.documentElement.style.cursor = selecting ? 'crosshair' : ''
      if (!selecting) outline(null)
    }
  })
  // Listening now: the control center may send what it kept while the page loaded.
  if (controlCenter && window.parent !== window)
    window.parent.postMessage({ type: 'fw:ready' }, controlCenter)
}

interface Field {
  pointer: string
  text: string
}

const squash = (t: string) => t.replace(/\s+/g, ' ').trim()

/**
 * The JSON pointer a clicked element shows: an element marked `data-fw-pointer` (itself or an
 * ancestor), else the field whose text is the element's (or its nearest ancestor's) whole text,
 * else the longest field text that element contains (a headline beside a badge). Null: no field.
 */
export function pointerOf(target: HTMLElement | null, fields: readonly Field[]): string | null {
  const marked = target?.closest?.('[data-fw-pointer]')?.getAttribute('data-fw-pointer')
  if (marked) return marked
  for (let el = target; el && el !== document.body; el = el.parentElement) {
    const t = squash(el.textContent ?? '')
    if (!t) continue
    const exact = fields.find((f) => squash(f.text) === t)
    if (exact) return exact.pointer
    const inside = fields
      .filter((f) => f.text.trim().length >= 3 && t.includes(squash(f.text)))
      .sort((a, b) => b.text.length - a.text.length)[0]
    if (inside) return inside.pointer
  }
  return null
}
