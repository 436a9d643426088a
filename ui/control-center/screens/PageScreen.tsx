import { useCallback, useEffect, useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import { Splitter, SplitterHandle, SplitterPanel } from '../../primitives/Splitter'
import { branchApi, useApi } from '../api'
import { type FileRow, type HistoryCommit, type PageInfo, pagePath } from '../api-types'
import { CC_PREVIEW_VIEWPORTS } from '../cc-constants'
import { useCc } from '../cc-context'
import { FunnelTab } from '../funnel/FunnelTab'
import { SourceEditor } from '../SourceEditor'
import { Empty, ErrorState, Loading, laTime, ScrollRegion, shortSha, WithResource } from '../States'
import { Tabs } from '../Tabs'
import { useResource } from '../use-resource'

const NARROW = '(max-width: 720px)'

/** `/pages/{page}?branch=B`: the editor (Source, History) left, the live preview right. */
export default function PageScreen() {
  const { branch: b, route } = useCc()
  const branch = b as string
  const key = route.params.page
  const path = `definitions/pages/${key}.json`
  const q = new URLSearchParams(location.search)
  const [tab, setTab] = useState(
    ['history', 'funnel'].includes(q.get('tab') ?? '') ? (q.get('tab') as string) : 'source',
  )
  const [saves, setSaves] = useState(0)
  const files = useResource<{ files: FileRow[] }>(branchApi(branch, '/files?kind=page'))
  const page = files.data?.files.find((f) => f.path === path || f.id === key)?.page
  const select = (t: string) => {
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  const onSaved = useCallback(() => setSaves((n) => n + 1), [])
  // On a phone the editor and the preview stack; side by side they would each be too narrow.
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches)
  useEffect(() => {
    const m = matchMedia(NARROW)
    const on = () => setNarrow(m.matches)
    m.addEventListener('change', on)
    return () => m.removeEventListener('change', on)
  }, [])
  return (
    <div className="cc-page cc-page-editor">
      <div className="cc-title-row">
        <h1>
          Page <code>{key}</code>
        </h1>
        <a className="button cc-small" href={ccPath('pages', {}, branch)}>
          All pages
        </a>
      </div>
      {narrow ? (
        <div className="stack">
          <div className="cc-pane">
            <Tabs
              label="Page editor"
              selected={tab}
              onSelect={select}
              tabs={[
                { id: 'source', label: 'Source' },
                { id: 'funnel', label: 'Funnel' },
                { id: 'history', label: 'History' },
              ]}
            >
              {tab === 'source' ? (
                <SourceEditor branch={branch} path={path} onSaved={onSaved} pointer={q.get('pointer')} />
              ) : tab === 'funnel' ? (
                <FunnelTab branch={branch} page={page} onSaved={onSaved} />
              ) : (
                <PageHistory branch={branch} />
              )}
            </Tabs>
          </div>
          <div className="cc-pane">
            {files.error ? (
              <ErrorState message={files.error} retry={files.reload} />
            ) : !page ? (
              files.data ? (
                <Empty>This page has no route to preview.</Empty>
              ) : (
                <Loading what="preview" />
              )
            ) : (
              <PreviewPane branch={branch} page={page} saves={saves} />
            )}
          </div>
        </div>
      ) : (
        <Splitter id="cc-page-editor" storageKey="cc-page-editor" className="cc-editor-split">
          <SplitterPanel id="editor" defaultSize={55} minSize={30}>
            <div className="cc-pane">
              <Tabs
                label="Page editor"
                selected={tab}
                onSelect={select}
                tabs={[
                  { id: 'source', label: 'Source' },
                  { id: 'funnel', label: 'Funnel' },
                  { id: 'history', label: 'History' },
                ]}
              >
                {tab === 'source' ? (
                  <SourceEditor branch={branch} path={path} onSaved={onSaved} pointer={q.get('pointer')} />
                ) : tab === 'funnel' ? (
                  <FunnelTab branch={branch} page={page} onSaved={onSaved} />
                ) : (
                  <PageHistory branch={branch} />
                )}
              </Tabs>
            </div>
          </SplitterPanel>
          <SplitterHandle label="Resize editor and preview" />
          <SplitterPanel id="preview" defaultSize={45} minSize={20}>
            <div className="cc-pane">
              {files.error ? (
                <ErrorState message={files.error} retry={files.reload} />
              ) : !page ? (
                files.data ? (
                  <Empty>This page has no route to preview.</Empty>
                ) : (
                  <Loading what="preview" />
                )
              ) : (
                <PreviewPane branch={branch} page={page} saves={saves} />
              )}
            </div>
          </SplitterPanel>
        </Splitter>
      )}
    </div>
  )
}

/** The page's path without its optional parameters (`/quiz/grocery/{step}` → `/quiz/grocery`). */
const previewPath = (p: string) => p.replace(/\/\{[^}]*\}.*$/, '') || '/'

function PreviewPane({ branch, page, saves }: { branch: string; page: PageInfo; saves: number }) {
  const api = useApi()
  const [brand, setBrand] = useState(page.brands[0] ?? '')
  const [width, setWidth] = useState<number>(CC_PREVIEW_VIEWPORTS[0])
  const [drafts, setDrafts] = useState(true)
  const [url, setUrl] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `saves` asks for a new grant (and a reload) after every save
  useEffect(() => {
    if (!brand) return
    let live = true
    setError(null)
    api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
      branch,
      drafts,
      brand,
      path: previewPath(pagePath(page)),
    }).then(
      (r) => {
        if (live) setUrl(r.urls[brand] ?? Object.values(r.urls)[0] ?? null)
      },
      (e: Error) => {
        if (live) setError(e.message)
      },
    )
    return () => {
      live = false
    }
  }, [api, branch, brand, drafts, page, saves])
  return (
    <div className="cc-preview stack">
      <div className="cc-preview-bar">
        <label className="cc-field cc-inline">
          <span>Brand</span>
          <select value={brand} onChange={(e) => setBrand(e.target.value)} data-testid="preview-brand">
            {page.brands.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </label>
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
        {url && (
          <a href={url} target="_blank" rel="noopener" className="cc-small">
            Open in a new tab
          </a>
        )}
      </div>
      {error ? (
        <ErrorState message={error} />
      ) : !url ? (
        <Loading what="preview" />
      ) : (
        <ScrollRegion className="cc-preview-frame" label="Preview viewport">
          <iframe
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

/** The branch's commits (the API has no per-file filter yet). */
function PageHistory({ branch }: { branch: string }) {
  const log = useResource<{ commits: HistoryCommit[] }>(branchApi(branch, '/history'))
  return (
    <WithResource resource={log} what="history">
      {(d) =>
        d.commits.length === 0 ? (
          <Empty>No commits on this branch.</Empty>
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
