/**
 * The phone number, drawn in plain DOM on every page: the header's call button and the hero's call to
 * action. The server renders their empty slots (HeaderPhone.tsx, PhoneCta.tsx: the HTML never depends
 * on the visitor); once the phone line is known this fills them — from the phone island on static
 * pages (ui/islands/start-islands.ts), from the components' effects after hydration on React pages —
 * and redraws them when the line changes and every few seconds (business hours end, a lease expires).
 */
import { NO_PHONE, type PhoneLineControl } from './phone-feature'
import { PHONE_ICON_PATH } from './phone-icon-path'
import { PHONE_RECHECK_MS, type PhoneLine, phoneLineAt } from './phone-line'

type OpenLine = Extract<PhoneLine, { status: 'open' }>

const SVG = 'http://www.w3.org/2000/svg'

function phoneIcon(doc: Document, size: number): SVGSVGElement {
  const svg = doc.createElementNS(SVG, 'svg')
  for (const [k, v] of Object.entries({
    width: String(size),
    height: String(size),
    viewBox: '0 0 24 24',
    'aria-hidden': 'true',
    focusable: 'false',
    fill: 'currentColor',
    class: 'phone-icon',
  }))
    svg.setAttribute(k, v)
  const path = doc.createElementNS(SVG, 'path')
  path.setAttribute('d', PHONE_ICON_PATH)
  svg.append(path)
  return svg
}

function element(
  doc: Document,
  tag: string,
  attributes: Record<string, string>,
  ...children: (Node | string)[]
) {
  const el = doc.createElement(tag)
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v)
  el.append(...children)
  return el
}

function headerPhone(doc: Document, line: OpenLine, es: boolean): HTMLElement {
  return element(
    doc,
    'a',
    {
      class: 'header-phone',
      href: line.href,
      'data-testid': 'header-phone',
      'data-phone-raw': line.raw,
      'data-phone-leased': String(line.leased),
      'aria-label': `${es ? 'Llámenos al' : 'Call us at'} ${line.dashed}`,
    },
    phoneIcon(doc, 18),
    element(doc, 'span', { class: 'header-phone-number' }, line.dashed),
  )
}

function phoneCta(doc: Document, line: OpenLine, es: boolean): HTMLElement[] {
  return [
    element(
      doc,
      'a',
      {
        class: 'button button-primary phone-cta-button',
        href: line.href,
        'data-testid': 'phone-cta',
        'data-phone-raw': line.raw,
      },
      phoneIcon(doc, 22),
      element(
        doc,
        'span',
        {},
        `${es ? 'Llame ahora' : 'Call now'}: `,
        element(doc, 'span', { class: 'phone-cta-number' }, line.dashed),
      ),
    ),
    element(
      doc,
      'p',
      { class: 'phone-cta-note' },
      es ? 'Agentes con licencia disponibles · TTY 711' : 'Licensed agents available · TTY 711',
    ),
  ]
}

/**
 * Fills the header slot and the hero's call to action (either may be absent) from `phone`; returns
 * what stops the redrawing (a React component unmounting).
 */
export function mountPhone(
  slots: { header: HTMLElement | null; cta: HTMLElement | null },
  phone: PhoneLineControl | null,
  es: boolean,
  doc: Document = document,
): () => void {
  if (!slots.header && !slots.cta) return () => {}
  let shown = ''
  const show = () => {
    const line = phoneLineAt(phone?.get() ?? NO_PHONE, Date.now())
    const key = line.status === 'open' ? `${line.raw}:${line.leased}` : 'closed'
    if (key === shown) return
    shown = key
    if (slots.header)
      slots.header.replaceChildren(...(line.status === 'open' ? [headerPhone(doc, line, es)] : []))
    const cta = slots.cta
    if (cta) {
      // Closed: no number and no reserved space (PhoneCta renders nothing then).
      cta.className = 'phone-cta'
      cta.removeAttribute('aria-hidden')
      cta.hidden = line.status !== 'open'
      cta.replaceChildren(...(line.status === 'open' ? phoneCta(doc, line, es) : []))
    }
  }
  show()
  const unsubscribe = phone?.subscribe(show)
  const timer = setInterval(show, PHONE_RECHECK_MS)
  return () => {
    clearInterval(timer)
    unsubscribe?.()
  }
}
