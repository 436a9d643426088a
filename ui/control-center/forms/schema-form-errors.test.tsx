/**
 * Where SchemaForm puts the server's errors (docs/decisions/0979), rendered in a happy-dom window:
 * under the field at or above their pointer, inside a group at its part, and the rest under the form.
 */
import { Window } from 'happy-dom'
import { createElement } from 'react'
import type { Root } from 'react-dom/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import pageSchema from '../../../schemas/page.schema.json'
import { PAGE_UI } from './kinds/page-ui'
import { SchemaForm } from './SchemaForm'
import type { JsonSchema } from './types'

let win: Window
let root: Root | null = null
let createRoot: typeof import('react-dom/client').createRoot

beforeAll(async () => {
  win = new Window({ url: 'http://ccc.localhost/' })
  Object.assign(globalThis, { window: win, document: win.document, navigator: win.navigator })
  // react-dom decides once, when it loads, whether it runs in a browser: load it after the window.
  ;({ createRoot } = await import('react-dom/client'))
})

afterAll(async () => {
  root?.unmount()
  await win?.happyDOM.close()
  for (const k of ['window', 'document', 'navigator']) delete (globalThis as Record<string, unknown>)[k]
})

const error = (pointer: string, message: string): DefinitionError => ({
  file: 'definitions/pages/x.json',
  line: 3,
  column: 1,
  pointer,
  message,
})

const until = async <T,>(what: () => T | null | undefined): Promise<T> => {
  for (let i = 0; i < 200; i++) {
    const v = what()
    if (v) return v
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error('timed out')
}

describe('SchemaForm', () => {
  it('puts each error under its field, a group part under that part, and the rest under the form', async () => {
    const container = win.document.createElement('div')
    win.document.body.appendChild(container)
    root = createRoot(container as unknown as HTMLElement)
    root.render(
      createElement(SchemaForm, {
        schema: pageSchema as JsonSchema,
        ui: PAGE_UI,
        tab: 'content',
        value: {
          template: 'funnel',
          brands: ['m10'],
          image: { src: '/images/x.png', alt: '', width: 1, height: 1 },
        },
        onChange: () => {},
        errors: [
          error('/destination', 'a funnel page needs a "destination" to finish to'),
          error('/image/alt', 'alt text is empty'),
          error('/sections/0/heading', 'must NOT have fewer than 1 characters'),
          error('/path', 'must match pattern'),
        ],
        label: 'Page content',
      }),
    )
    const destination = await until(() => container.querySelector('#pf-destination-err'))
    expect(destination.textContent).toBe(' a funnel page needs a "destination" to finish to')
    expect(container.querySelector('#pf-destination')?.getAttribute('aria-invalid')).toBe('true')
    expect(container.querySelector('#pf-image-alt-err')?.textContent).toContain('alt text is empty')
    expect(container.querySelector('#pf-image-alt')?.getAttribute('aria-invalid')).toBe('true')
    // No field of this tab shows /sections: it is listed under the form; /path belongs to another tab.
    const other = container.querySelector('[aria-label="Other errors"]')?.textContent ?? ''
    expect(other).toContain('/sections/0/heading')
    expect(other).not.toContain('must match pattern')
  })
})
