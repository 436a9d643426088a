import { useCallback, useEffect, useRef, useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { HistoryCommit } from '../../../schemas/generated/cc-answers/branches'
import type { FileRow, PageInfo } from '../../../schemas/generated/cc-answers/common'
import type { PageEditorData } from '../../../schemas/generated/cc-answers/editor'
import type { Page } from '../../../schemas/generated/page'
import { Splitter, SplitterHandle, SplitterPanel } from '../../primitives/Splitter'
import { pagePath } from '../answer-helpers'
import { branchApi, useApi } from '../api'
import { CC_PREVIEW_VIEWPORTS } from '../cc-constants'
import { useCc } from '../cc-context'
import { FunnelTab } from '../funnel/FunnelTab'
import { type ImageList, imagesUrl } from '../images-api'
import { PageActions } from '../page/PageActions'
import { clickableFields, fieldForText, PageForm, type PageSection } from '../page/PageForm'
import '../page/page-editor.css'
import { SourceEditor } from '../SourceEditor'
import { Empty, ErrorState, Loading, laTime, ScrollRegion, shortSha, WithResource } from '../States'
import { Tabs } from '../Tabs'
import { useJsonDraft } from '../use-json-draft'
import { useResource } from '../use-resource'

const NARROW = '(max-width: 720px)'
const TABS = [
  { id: 'content', label: 'Content' },
  { id: 'route', label: 'Route & brands' },
  { id: 'seo', label: 'SEO' },
  { id: 'funnel', label: 'Funnel' },
  { id: 'experiments', label: 'Experiments' },
  { id: 'source', label: 'Source' },
  { id: 'history', label: 'History' },
]
const FORM_TABS = new Set(['content', 'route', 'seo'])

/**
 * `/pages/{page}?branch=B`: the page editor. Content, Route & brands and SEO are one form over the
 * page's draft; Funnel edits the funnel it runs; Source is the JSON. The live preview of my unsaved
 * changes sits beside it (stacked on a phone); its Select mode focuses the field of a clicked text.
 */
export default function PageScreen() {
  const { branch: b, route } = useCc()
  const branch = b as string
  const key = route.params.page
  const path = `definitions/pages/${key}.json`
  const q = new URLSearchParams(location.search)
  const [tab, setTab] = useState(
    TABS.some((t) => t.id === q.get('tab')) ? (q.get('tab') as string) : 'content',
  )
  const [saves, setSaves] = useState(0)
  // Leaving the Source tab reloads the form from the draft the Source editor saved.
  const [formKey, setFormKey] = useState(0)
  const [focus, setFocus] = useState<{ pointer: string; n: number } | null>(null)
  const files = useResource<{ files: FileRow[] }>(branchApi(branch, '/files?kind=page'))
  const lookups = useResource<PageEditorData>(
    branchApi(branch, `/page-editor?page=${encodeURIComponent(key)}`),
    saves,
  )
  const row = files.data?.files.find((f) => f.path === path || f.id === key)
  const page = row?.page
  const select = (t: string) => {
    if (tab === 'source' && t !== 'source') setFormKey((k) => k + 1)
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  const [saved, setSaved] = useState<Partial<Page> | null>(null)
  const onSaved = useCallback((text?: string) => {
    if (text !== undefined) {
      try {
        setSaved(JSON.parse(text) as Partial<Page>)
      } catch {}
    }
    setSaves((n) => n + 1)
  }, [])
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches)
  useEffect(() => {
    const m = matchMedia(NARROW)
    const on = () => setNarrow(m.matches)
    m.addEventListener('change', on)
    return () => m.removeEventListener('change', on)
  }, [])
  const [picked, setPicked] = useState<Partial<Page> | null>(null)
  const onPick = (text: string[]) => {
    if (!picked) return
    for (const t of text) {
      const hit = fieldForText(picked, t)
      if (!hit) continue
      if (tab !== hit.section) select(hit.section)
      setFocus((f) => ({ pointer: hit.pointer, n: (f?.n ?? 0) + 1 }))
      return
    }
  }

  if (files.data && !row)
    return (
      <div className="cc-page">
        <ErrorState message={`There is no page "${key}" on this branch.`} />
        <a className="button cc-small" href={ccPath('pages', {}, branch)}>
          All pages
        </a>
      </div>
    )
  const editor = (
    <div className="cc-pane">
      <Tabs label="Page editor" selected={tab} onSelect={select} tabs={TABS}>
        {FORM_TABS.has(tab) ? (
          <PageFormHost
            key={formKey}
            branch={branch}
            path={path}
            section={tab as PageSection}
            lookups={lookups.data}
            onSaved={onSaved}
            onSource={() => select('source')}
            onValue={setPicked}
            focus={focus}
          />
        ) : tab === 'source' ? (
          <SourceEditor branch={branch} path={path} onSaved={onSaved} pointer={q.get('pointer')} />
        ) : tab === 'funnel' ? (
          <FunnelTab branch={branch} page={page} onSaved={onSaved} />
        ) : tab === 'experiments' ? (
          <PageExperiments branch={branch} data={lookups.data} error={lookups.error} />
        ) : (
          <PageHistory branch={branch} path={path} />
        )}
      </Tabs>
    </div>
  )
  const preview = (
    <div className="cc-pane">
      {files.error ? (
        <ErrorState message={files.error} retry={files.reload} />
      ) : !page ? (
        <Loading what="preview" />
      ) : (
        <PreviewPane
          branch={branch}
          page={page}
          saves={saves}
          live={FORM_TABS.has(tab) ? picked : null}
          saved={saved}
          lookups={lookups.data}
          onPick={onPick}
          canPick={FORM_TABS.has(tab) || tab === 'funnel'}
        />
      )}
    </div>
  )
  return (
    <div className="cc-page cc-page-editor">
      <div className="cc-title-row">
        <h1>
          Page <code>{key}</code>
        </h1>
        <div className="cc-row">
          {page && (
            <PageActions
              branch={branch}
              page={page}
              path={path}
              references={lookups.data?.references ?? null}
              recheck={lookups.reload}
            />
          )}
          <a className="button cc-small" href={ccPath('pages', {}, branch)}>
            All pages
          </a>
        </div>
      </div>
      {narrow ? (
        <div className="stack">
          {editor}
          {preview}
        </div>
      ) : (
        <Splitter id="cc-page-editor" storageKey="cc-page-editor" className="cc-editor-split">
          <SplitterPanel id="editor" defaultSize={55} minSize={30}>
            {editor}
          </SplitterPanel>
          <SplitterHandle label="Resize editor and preview" />
          <SplitterPanel id="preview" defaultSize={45} minSize={20}>
            {preview}
          </SplitterPanel>
        </Splitter>
      )}
    </div>
  )
}

/** The page's draft shared by the Content, Route & brands and SEO tabs. */
function PageFormHost({
  branch,
  path,
  section,
  lookups,
  onSaved,
  onSource,
  onValue,
  focus,
}: {
  branch: string
  path: string
  section: PageSection
  lookups: PageEditorData | null
  onSaved: () => void
  onSource: () => void
  onValue: (p: Partial<Page> | null) => void
  focus: { pointer: string; n: number } | null
}) {
  const draft = useJsonDraft<Page>(branch, path, onSaved)
  const images = useResource<ImageList>(section === 'content' ? imagesUrl(branch) : null)
  // An error's link (`&pointer=`, from the Problems panel or a publish refusal) focuses its field.
  const [linked] = useState(() => {
    const pointer = new URLSearchParams(location.search).get('pointer')
    return pointer ? { pointer, n: 0 } : null
  })
  useEffect(() => onValue(draft.value), [draft.value, onValue])
  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.unreadable)
    return (
      <p className="cc-form-error" role="alert">
        This page's file is not a JSON object, so the form cannot show it: fix it in the Source tab.
      </p>
    )
  if (!draft.value) return <Loading what={path} />
  return (
    <div className="stack">
      {draft.bar}
      <PageForm
        draft={draft}
        section={section}
        brands={lookups?.brands ?? []}
        funnels={lookups?.funnels ?? []}
        images={images.data?.images ?? (images.error ? [] : null)}
        fileKey={path.replace(/^.*\//, '').replace(/\.json$/, '')}
        onSource={onSource}
        focus={focus ?? linked}
      />
    </div>
  )
}

function PageExperiments({
  branch,
  data,
  error,
}: {
  branch: string
  data: PageEditorData | null
  error: string | null
}) {
  if (error) return <ErrorState message={error} />
  if (!data) return <Loading what="experiments" />
  if (data.experiments.length === 0)
    return (
      <Empty>
        No experiment runs on this page.{' '}
        <a href={ccPath('experiments', {}, branch)}>Start one on the Experiments screen.</a>
      </Empty>
    )
  return (
    <ul className="cc-list">
      {data.experiments.map((x) => (
        <li key={x.id}>
          <a href={ccPath('experiment', { experiment: x.id }, branch)}>{x.id}</a>{' '}
          <span className="cc-badge">{x.status}</span> <span className="muted">{x.description}</span>
        </li>
      ))}
    </ul>
  )
}

/** The page's path without its optional parameters (`/quiz/grocery/{step}` → `/quiz/grocery`). */
const previewPath = (p: string) => p.replace(/\/\{[^}]*\}.*$/, '') || '/'

function PreviewPane({
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
  onPick: (texts: string[]) => void
  canPick: boolean
}) {
  const api = useApi()
  const [brand, setBrand] = useState(page.brands[0] ?? '')
  const [width, setWidth] = useState<number>(CC_PREVIEW_VIEWPORTS[0])
  const [drafts, setDrafts] = useState(true)
  const [url, setUrl] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [picking, setPicking] = useState(false)
  const [step, setStep] = useState('')
  const [variant, setVariant] = useState('')
  const frame = useRef<HTMLIFrameElement>(null)
  const route =
    previewPath(pagePath(page)) + (step ? `${previewPath(pagePath(page)) === '/' ? '' : '/'}${step}` : '')
  const variants = (lookups?.experiments ?? []).flatMap((x) =>
    x.variants.map((v) => ({ experiment: x.id, id: v })),
  )
  useEffect(() => {
    if (!brand) return
    let live = true
    setError(null)
    api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
      branch,
      drafts,
      brand,
      path: route,
    }).then(
      (r) => {
        const u = r.urls[brand] ?? Object.values(r.urls)[0] ?? null
        if (!live || !u) return
        // A variant's preview (docs/decisions/0105): the same grant with `fw_variant`.
        const withVariant = new URL(u)
        if (variant) withVariant.searchParams.set('fw_variant', variant)
        setUrl(withVariant.toString())
      },
      (e: Error) => {
        if (live) setError(e.message)
      },
    )
    return () => {
      live = false
    }
  }, [api, branch, brand, drafts, route, variant])
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
  const origin = url ? new URL(url).origin : null
  // Messages wait until the preview's runtime listens (fw:ready): before, they would be lost.
  const loaded = useRef(false)
  const post = (message: object) => {
    if (origin && loaded.current) frame.current?.contentWindow?.postMessage(message, origin)
  }
  // What the preview shows now, field by field: typing patches those texts in place at once
  // (the autosave's reload then shows the real render of the draft).
  const shown = useRef<Map<string, string> | null>(null)
  const liveRef = useRef(live)
  liveRef.current = live
  const savedRef = useRef(saved)
  savedRef.current = saved
  // biome-ignore lint/correctness/useExhaustiveDependencies: patches follow the typed value
  useEffect(() => {
    // Until the preview's runtime is ready, onReady catches up with what was typed meanwhile.
    if (!live || !loaded.current || !shown.current) return
    for (const f of clickableFields(live)) {
      const before = shown.current.get(f.pointer)
      if (before && before !== f.text) {
        post({ type: 'fw:patch', from: before, to: f.text })
        shown.current.set(f.pointer, f.text)
      }
    }
  }, [live])
  // The document the preview renders: the form's value when the grant was asked for, then each
  // saved draft the preview reloads with.
  const rendered = useRef<Partial<Page> | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new grant renders the value of now
  useEffect(() => {
    rendered.current = savedRef.current
    loaded.current = false
  }, [url])
  // Before any save, the preview renders the draft as the form loaded it.
  const initial = useRef<Partial<Page> | null>(null)
  if (!initial.current && live) initial.current = live
  // The preview's runtime says when it listens (it starts after hydration, well after `load`).
  const onReady = () => {
    loaded.current = true
    const doc = rendered.current ?? initial.current
    shown.current = doc ? new Map(clickableFields(doc).map((f) => [f.pointer, f.text])) : null
    post({ type: 'fw:select', on: selectOn })
    // Typed since the saved draft: patch it in again.
    const now = liveRef.current
    if (now && shown.current)
      for (const f of clickableFields(now)) {
        const before = shown.current.get(f.pointer)
        if (before && before !== f.text) {
          post({ type: 'fw:patch', from: before, to: f.text })
          shown.current.set(f.pointer, f.text)
        }
      }
  }
  const readyRef = useRef(onReady)
  readyRef.current = onReady
  // Select mode: the preview sends the text of a clicked element; the editor focuses its field.
  const pickRef = useRef(onPick)
  pickRef.current = onPick
  useEffect(() => {
    const on = (e: MessageEvent) => {
      if (e.origin !== origin || e.source !== frame.current?.contentWindow) return
      const d = e.data as { type?: string; texts?: unknown }
      if (d?.type === 'fw:ready') readyRef.current()
      if (d?.type === 'fw:selected' && Array.isArray(d.texts))
        pickRef.current(d.texts.filter((t) => typeof t === 'string'))
    }
    window.addEventListener('message', on)
    return () => window.removeEventListener('message', on)
  }, [origin])
  const selectOn = picking && canPick
  // biome-ignore lint/correctness/useExhaustiveDependencies: tell the preview whenever the mode or the page changes
  useEffect(() => {
    post({ type: 'fw:select', on: selectOn })
  }, [selectOn, url])
  return (
    <div className="cc-preview stack">
      <div className="cc-preview-bar">
        <div className="cc-field cc-inline">
          <label htmlFor="preview-brand">Brand</label>
          <select
            id="preview-brand"
            value={brand}
            onChange={(e) => setBrand(e.target.value)}
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
            <select id="preview-step" value={step} onChange={(e) => setStep(e.target.value)}>
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
            <select id="preview-variant" value={variant} onChange={(e) => setVariant(e.target.value)}>
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
              <input type="radio" name="viewport" checked={width === w} onChange={() => setWidth(w)} />
              <span>{w}</span>
            </label>
          ))}
        </fieldset>
        <label className="cc-check">
          <input type="checkbox" checked={drafts} onChange={(e) => setDrafts(e.target.checked)} />
          Include my unsaved changes
        </label>
        {canPick && (
          <button
            type="button"
            className="button cc-small"
            aria-pressed={picking}
            onClick={() => setPicking((p) => !p)}
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
            title={`Preview of ${page.key} on ${brand}`}
            style={{ width }}
            data-testid="preview-frame"
          />
        </ScrollRegion>
      )}
    </div>
  )
}

/** The page file's commits. */
function PageHistory({ branch, path }: { branch: string; path: string }) {
  const log = useResource<{ commits: HistoryCommit[] }>(
    branchApi(branch, `/history?path=${encodeURIComponent(path)}`),
  )
  return (
    <WithResource resource={log} what="history">
      {(d) =>
        d.commits.length === 0 ? (
          <Empty>No commits of this page on this branch.</Empty>
        ) : (
          <ol className="cc-list cc-history">
            {d.commits.map((c) => (
              <li key={c.sha}>
                <code>{shortSha(c.sha)}</code> {c.subject}{' '}
                <span className="muted">
                  {c.author.name} · {laTime(c.date)}
                </span>
              </li>
            ))}
          </ol>
        )
      }
    </WithResource>
  )
}
