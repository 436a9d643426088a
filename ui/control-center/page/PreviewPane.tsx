import { useEffect, useRef, useState } from 'react'
import type { PageInfo } from '../../../schemas/generated/cc-answers/common'
import type { PageEditorData } from '../../../schemas/generated/cc-answers/editor'
import type { Page } from '../../../schemas/generated/page'
import { pagePath } from '../answer-helpers'
import { useApi } from '../api'
import { CC_PREVIEW_VIEWPORTS } from '../cc-constants'
import { ErrorState, Loading, ScrollRegion } from '../States'
import { type PreviewPick, usePreviewChannel } from './use-preview-channel'

/** The page's path without its optional parameters (`/quiz/grocery/{step}` → `/quiz/grocery`). */
const previewPath = (p: string) => p.replace(/\/\{[^}]*\}.*$/, '') || '/'

interface PreviewControls {
  brand: string
  width: number
  drafts: boolean
  step: string
  variant: string
  picking: boolean
}

/** A signed preview URL of the page on a brand (docs/decisions/0601), with a variant when chosen. */
function usePreviewGrant(branch: string, route: string, c: PreviewControls) {
  const api = useApi()
  const [url, setUrl] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const { brand, drafts, variant } = c
  useEffect(() => {
    if (!brand) return
    let current = true
    setError(null)
    api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
      branch,
      drafts,
      brand,
      path: route,
    }).then(
      (r) => {
        const u = r.urls[brand] ?? Object.values(r.urls)[0] ?? null
        if (!current || !u) return
        // A variant's preview (docs/decisions/0105): the same grant with `fw_variant`.
        const withVariant = new URL(u)
        if (variant) withVariant.searchParams.set('fw_variant', variant)
        setUrl(withVariant.toString())
      },
      (e: Error) => {
        if (current) setError(e.message)
      },
    )
    return () => {
      current = false
    }
  }, [api, branch, brand, drafts, route, variant])
  return { url, error }
}

/** The live preview of the page being edited: brand, viewport, step and variant pickers, Select mode. */
export function PreviewPane({
  branch,
  page,
  saves,
  live,
  saved,
  lookups,
  onPick,
  canPick,
}: {
  branch: string
  page: PageInfo
  saves: number
  /** The funnel's steps and the page's experiments, for the step and variant pickers. */
  lookups: PageEditorData | null
  /** The form's value as typed: its texts are patched into the preview at once. */
  live: Partial<Page> | null
  /** The last saved draft: what the preview shows after its reload. */
  saved: Partial<Page> | null
  onPick: (pick: PreviewPick) => void
  canPick: boolean
}) {
  const [c, setC] = useState<PreviewControls>({
    brand: page.brands[0] ?? '',
    width: CC_PREVIEW_VIEWPORTS[0],
    drafts: true,
    step: '',
    variant: '',
    picking: false,
  })
  const base = previewPath(pagePath(page))
  const route = base + (c.step ? `${base === '/' ? '' : '/'}${c.step}` : '')
  const { url, error } = usePreviewGrant(branch, route, c)
  const frame = useRef<HTMLIFrameElement>(null)
  const selectOn = c.picking && canPick
  usePreviewChannel({ frame, url, live, saved, saves, selectOn, onPick })
  return (
    <div className="cc-preview stack">
      <PreviewBar
        page={page}
        lookups={lookups}
        c={c}
        set={(p) => setC((x) => ({ ...x, ...p }))}
        canPick={canPick}
        url={url}
      />
      {selectOn && (
        <p className="muted cc-small" role="status">
          Click a text in the preview to edit its field.
        </p>
      )}
      {error ? (
        <ErrorState message={error} />
      ) : !url ? (
        <Loading what="preview" />
      ) : (
        <ScrollRegion className="cc-preview-frame" label="Preview viewport">
          <iframe
            ref={frame}
            key={url}
            src={url}
            title={`Preview of ${page.key} on ${c.brand}`}
            style={{ width: c.width }}
            data-testid="preview-frame"
          />
        </ScrollRegion>
      )}
    </div>
  )
}

function PreviewBar({
  page,
  lookups,
  c,
  set,
  canPick,
  url,
}: {
  page: PageInfo
  lookups: PageEditorData | null
  c: PreviewControls
  set: (p: Partial<PreviewControls>) => void
  canPick: boolean
  url: string | null
}) {
  const variants = (lookups?.experiments ?? []).flatMap((x) =>
    x.variants.map((v) => ({ experiment: x.id, id: v })),
  )
  return (
    <div className="cc-preview-bar">
      <div className="cc-field cc-inline">
        <label htmlFor="preview-brand">Brand</label>
        <select
          id="preview-brand"
          value={c.brand}
          onChange={(e) => set({ brand: e.target.value })}
          data-testid="preview-brand"
        >
          {page.brands.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
      </div>
      {(lookups?.steps.length ?? 0) > 0 && (
        <div className="cc-field cc-inline">
          <label htmlFor="preview-step">Step</label>
          <select id="preview-step" value={c.step} onChange={(e) => set({ step: e.target.value })}>
            <option value="">First</option>
            {lookups?.steps.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
      )}
      {variants.length > 0 && (
        <div className="cc-field cc-inline">
          <label htmlFor="preview-variant">Variant</label>
          <select id="preview-variant" value={c.variant} onChange={(e) => set({ variant: e.target.value })}>
            <option value="">As a visitor gets it</option>
            {variants.map((v) => (
              <option key={`${v.experiment}:${v.id}`} value={v.id}>
                {v.experiment}: {v.id}
              </option>
            ))}
          </select>
        </div>
      )}
      <fieldset className="cc-segmented">
        <legend className="cc-visually-hidden">Viewport</legend>
        {CC_PREVIEW_VIEWPORTS.map((w) => (
          <label key={w}>
            <input type="radio" name="viewport" checked={c.width === w} onChange={() => set({ width: w })} />
            <span>{w}</span>
          </label>
        ))}
      </fieldset>
      <label className="cc-check">
        <input type="checkbox" checked={c.drafts} onChange={(e) => set({ drafts: e.target.checked })} />
        Include my unsaved changes
      </label>
      {canPick && (
        <button
          type="button"
          className="button cc-small"
          aria-pressed={c.picking}
          onClick={() => set({ picking: !c.picking })}
          data-testid="preview-select"
        >
          Select
        </button>
      )}
      {url && (
        <a href={url} target="_blank" rel="noopener" className="cc-small">
          Open in a new tab
        </a>
      )}
    </div>
  )
}
