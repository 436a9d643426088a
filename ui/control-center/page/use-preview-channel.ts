import { type RefObject, useEffect, useRef } from 'react'
import type { Page } from '../../../schemas/generated/page'
import { clickableFields } from './PageForm'

/** What the preview's Select mode reports: the JSON pointer of the clicked field (or null) and its texts. */
export interface PreviewPick {
  pointer: string | null
  texts: string[]
}

/**
 * The conversation with the preview iframe (ui/runtime/preview.ts): messages wait for its
 * `fw:ready`; typed texts are patched into it at once (`fw:patch`), so the preview follows typing
 * without waiting for the autosave; each autosave reloads it with the server's real render
 * (`fw:reload`); Select mode (`fw:select`, with the document's text fields by pointer) makes a click
 * report the clicked field's pointer (`fw:selected`).
 */
export function usePreviewChannel({
  frame,
  url,
  live,
  saved,
  saves,
  selectOn,
  onPick,
}: {
  frame: RefObject<HTMLIFrameElement | null>
  url: string | null
  /** The form's value as typed. */
  live: Partial<Page> | null
  /** The last saved draft: what the preview renders after its reload. */
  saved: Partial<Page> | null
  /** Bumped by each autosave. */
  saves: number
  selectOn: boolean
  onPick: (pick: PreviewPick) => void
}): void {
  const origin = url ? new URL(url).origin : null
  // Messages wait until the preview's runtime listens (fw:ready): before, they would be lost.
  const loaded = useRef(false)
  const post = (message: object) => {
    if (origin && loaded.current) frame.current?.contentWindow?.postMessage(message, origin)
  }
  // What the preview shows now, field by field (pointer → text).
  const shown = useRef<Map<string, string> | null>(null)
  const liveRef = useRef(live)
  liveRef.current = live
  const savedRef = useRef(saved)
  savedRef.current = saved
  const selectRef = useRef(selectOn)
  selectRef.current = selectOn
  /** Sends every typed text the preview does not show yet. */
  const patch = () => {
    const now = liveRef.current
    if (!now || !loaded.current || !shown.current) return
    for (const f of clickableFields(now)) {
      const before = shown.current.get(f.pointer)
      if (before && before !== f.text) {
        post({ type: 'fw:patch', from: before, to: f.text })
        shown.current.set(f.pointer, f.text)
      }
    }
  }
  const select = () =>
    post({
      type: 'fw:select',
      on: selectRef.current,
      fields: [...(shown.current ?? new Map())].map(([pointer, text]) => ({ pointer, text })),
    })
  // biome-ignore lint/correctness/useExhaustiveDependencies: patches follow the typed value
  useEffect(patch, [live])
  // The document the preview renders: the form's value when the grant was asked for, then each
  // saved draft the preview reloads with.
  const rendered = useRef<Partial<Page> | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new grant renders the value of now
  useEffect(() => {
    rendered.current = savedRef.current
    loaded.current = false
  }, [url])
  // After each autosave the preview reloads itself (the grant stays): no new iframe, no new grant.
  const first = useRef(true)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `saves` is the signal to reload
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    if (!loaded.current) return
    post({ type: 'fw:reload' })
    loaded.current = false
    rendered.current = savedRef.current
  }, [saves])
  // Before any save, the preview renders the draft as the form loaded it.
  const initial = useRef<Partial<Page> | null>(null)
  if (!initial.current && live) initial.current = live
  const onReady = () => {
    loaded.current = true
    const doc = rendered.current ?? initial.current
    shown.current = doc ? new Map(clickableFields(doc).map((f) => [f.pointer, f.text])) : null
    // Typed since the saved draft: patch it in again, then tell the mode (with the texts shown).
    patch()
    select()
  }
  const readyRef = useRef(onReady)
  readyRef.current = onReady
  const pickRef = useRef(onPick)
  pickRef.current = onPick
  useEffect(() => {
    const on = (e: MessageEvent) => {
      if (e.origin !== origin || e.source !== frame.current?.contentWindow) return
      const d = e.data as { type?: string; texts?: unknown; pointer?: unknown }
      if (d?.type === 'fw:ready') readyRef.current()
      if (d?.type === 'fw:selected')
        pickRef.current({
          pointer: typeof d.pointer === 'string' && d.pointer.startsWith('/') ? d.pointer : null,
          texts: Array.isArray(d.texts) ? d.texts.filter((t) => typeof t === 'string') : [],
        })
    }
    window.addEventListener('message', on)
    return () => window.removeEventListener('message', on)
  }, [origin, frame])
  // biome-ignore lint/correctness/useExhaustiveDependencies: tell the preview whenever the mode or the page changes
  useEffect(select, [selectOn, url])
}
