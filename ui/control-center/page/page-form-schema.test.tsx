/**
 * Acceptance 3 of issue 28: the page editor is built from the page kind's JSON Schema, so a property
 * added to (a copy of) page.schema.json shows as a labelled field with no UI code, and typing in it
 * autosaves a draft holding the value. The form renders in a happy-dom window; its API calls go to
 * the real control-center server (cc-test-harness) as a signed-in editor.
 */
import { Window } from 'happy-dom'
import { createElement, useMemo } from 'react'
import type { Root } from 'react-dom/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from '../../../schemas/generated/page'
import pageSchema from '../../../schemas/page.schema.json'
import { type CcHarness, startCcHarness } from '../../../server/control-center/api/cc-test-harness'
import { ApiContext, createApi } from '../api'
import { CcContext, type CcContextValue } from '../cc-context'
import type { JsonSchema } from '../forms/types'
import { useJsonDraft } from '../use-json-draft'
import { PageForm } from './PageForm'

const BRANCH = 'promo-field'
const PATH = 'definitions/pages/grocery-allowance-r2.json'

let h: CcHarness<'ed'>
let win: Window
let root: Root | null = null
let createRoot: typeof import('react-dom/client').createRoot
const puts: { url: string; body: { text: string } }[] = []

beforeAll(async () => {
  h = await startCcHarness({ prefix: 'fw-cc-form-schema-', staff: { ed: { name: 'Ed', role: 'editor' } } })
  expect((await h.call('ed', 'POST', '/api/cc/branches', { title: 'Promo', name: BRANCH })).status).toBe(201)
  // A browser window for React only; the server keeps Node's own globals.
  win = new Window({ url: 'http://ccc.localhost/pages/grocery-allowance-r2' })
  Object.assign(globalThis, {
    window: win,
    document: win.document,
    navigator: win.navigator,
    localStorage: win.localStorage,
    location: win.location,
  })
  // react-dom decides once, when it loads, whether it runs in a browser: load it after the window.
  ;({ createRoot } = await import('react-dom/client'))
}, 120_000)

afterAll(async () => {
  root?.unmount()
  await win?.happyDOM.close()
  for (const k of ['window', 'document', 'navigator', 'localStorage', 'location'])
    delete (globalThis as Record<string, unknown>)[k]
  await h?.close()
}, 60_000)

/** fetch() for the control center's API caller: the same request, sent to the real server as Ed. */
const toServer: typeof fetch = async (input, init) => {
  const url = String(input)
  const body = typeof init?.body === 'string' ? init.body : undefined
  if (init?.method === 'PUT' && url.includes('/drafts?')) puts.push({ url, body: JSON.parse(body ?? '{}') })
  const answer = await h.call(
    'ed',
    init?.method ?? 'GET',
    url,
    body === undefined ? undefined : JSON.parse(body),
  )
  return new Response(answer.text, { status: answer.status, headers: { 'content-type': 'application/json' } })
}

function Editor({ schema }: { schema: JsonSchema }) {
  const draft = useJsonDraft<Page>(BRANCH, PATH)
  return draft.value
    ? createElement(
        'div',
        null,
        draft.bar,
        createElement(PageForm, {
          draft,
          schema,
          section: 'content',
          brands: [],
          funnels: [],
          images: [],
          fileKey: 'grocery-allowance-r2',
          onSource: () => {},
        }),
      )
    : null
}

function App({ schema }: { schema: JsonSchema }) {
  const api = useMemo(() => createApi(async () => {}, toServer), [])
  const cc: CcContextValue = useMemo(
    () => ({
      route: { screen: 'page', params: {}, branch: BRANCH, user: null },
      branch: BRANCH,
      status: null,
      may: () => false,
      offerBranch: () => {},
      changed: () => {},
      revision: 0,
    }),
    [],
  )
  return createElement(
    ApiContext.Provider,
    { value: api },
    createElement(CcContext.Provider, { value: cc }, createElement(Editor, { schema })),
  )
}

const until = async <T,>(what: () => T | null | undefined, ms = 15_000): Promise<T> => {
  const end = Date.now() + ms
  for (;;) {
    const v = what()
    if (v) return v
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('the page editor built from the schema', () => {
  it('shows a property added to a copy of page.schema.json as a labelled field, and autosaves what is typed in it', async () => {
    const copy = structuredClone(pageSchema) as JsonSchema & { properties: Record<string, JsonSchema> }
    copy.properties.promoCode = { type: 'string', description: 'Code printed on the flyer for this page.' }
    const container = win.document.createElement('div')
    win.document.body.appendChild(container)
    root = createRoot(container as unknown as HTMLElement)
    root.render(createElement(App, { schema: copy }))

    const label = await until(() =>
      [...container.querySelectorAll('label')].find((l) => l.textContent === 'Promo code'),
    )
    const input = container.querySelector(`#${label.getAttribute('for')}`) as unknown as HTMLInputElement
    expect(input.tagName).toBe('INPUT')
    const help = container.querySelector(`#${input.id}-help`)
    expect(help?.textContent).toContain('Code printed on the flyer for this page.')
    expect(input.getAttribute('aria-describedby')).toContain(`${input.id}-help`)

    // Typing as a browser does: the value set natively, then an input event React listens for.
    const setValue = Object.getOwnPropertyDescriptor(win.HTMLInputElement.prototype, 'value')?.set
    setValue?.call(input, 'SPRING25')
    input.dispatchEvent(new win.Event('input', { bubbles: true }) as unknown as Event)

    const put = await until(() => puts.find((p) => p.body.text.includes('SPRING25')))
    expect(put.url).toBe(`/api/cc/branches/${BRANCH}/drafts?path=${encodeURIComponent(PATH)}`)
    expect(JSON.parse(put.body.text).promoCode).toBe('SPRING25')
    await until(() => container.querySelector('[data-testid="save-state"]')?.textContent === 'Draft saved')
    // The server holds the draft with the value (the file on the branch is unchanged).
    const file = await h.call('ed', 'GET', `/api/cc/branches/${BRANCH}/file?path=${encodeURIComponent(PATH)}`)
    expect(JSON.parse(file.json.draft.text).promoCode).toBe('SPRING25')
    expect(JSON.parse(file.json.text).promoCode).toBeUndefined()
  }, 60_000)
})
