import { useCallback, useEffect, useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { FileRow, PageInfo } from '../../../schemas/generated/cc-answers/common'
import type { PageEditorData } from '../../../schemas/generated/cc-answers/editor'
import type { Page } from '../../../schemas/generated/page'
import { Splitter, SplitterHandle, SplitterPanel } from '../../primitives/Splitter'
import { branchApi } from '../api'
import { useCc } from '../cc-context'
import { FunnelTab } from '../funnel/FunnelTab'
import { type ImageList, imagesUrl } from '../images-api'
import { PageActions } from '../page/PageActions'
import { clickableFields, fieldForText, PageForm, type PageSection } from '../page/PageForm'
import { PageExperiments, PageHistory } from '../page/PageSideTabs'
import { PreviewPane } from '../page/PreviewPane'
import '../page/page-editor.css'
import { useFocusPointer } from '../page/use-focus-pointer'
import type { PreviewPick } from '../page/use-preview-channel'
import { SourceEditor } from '../SourceEditor'
import { ErrorState, Loading } from '../States'
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

/** Whether the screen is phone-narrow (editor and preview stacked instead of split). */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches)
  useEffect(() => {
    const m = matchMedia(NARROW)
    const on = () => setNarrow(m.matches)
    m.addEventListener('change', on)
    return () => m.removeEventListener('change', on)
  }, [])
  return narrow
}

/** The tab shown, kept in the URL's `tab` (leaving Source reloads the form from its draft). */
function useEditorTab() {
  const q = new URLSearchParams(location.search)
  const [tab, setTab] = useState(
    TABS.some((t) => t.id === q.get('tab')) ? (q.get('tab') as string) : 'content',
  )
  const [formKey, setFormKey] = useState(0)
  const select = (t: string) => {
    if (tab === 'source' && t !== 'source') setFormKey((k) => k + 1)
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  return { tab, select, formKey, pointer: q.get('pointer') }
}

/**
 * `/pages/{page}?branch=B`: the page editor. Content, Route & brands and SEO are one form over the
 * page's draft; Funnel edits the funnel it runs; Source is the JSON. The live preview of my unsaved
 * changes sits beside it (stacked on a phone); its Select mode focuses the field of a clicked text
 * by JSON pointer (docs/decisions/0987).
 */
export default function PageScreen() {
  const { branch: b, route } = useCc()
  const branch = b as string
  const key = route.params.page
  const path = `definitions/pages/${key}.json`
  const { tab, select, formKey, pointer } = useEditorTab()
  const [saves, setSaves] = useState(0)
  const [focus, setFocus] = useState<{ pointer: string; n: number } | null>(null)
  useFocusPointer(focus)
  const files = useResource<{ files: FileRow[] }>(branchApi(branch, '/files?kind=page'))
  const lookups = useResource<PageEditorData>(
    branchApi(branch, `/page-editor?page=${encodeURIComponent(key)}`),
    saves,
  )
  const row = files.data?.files.find((f) => f.path === path || f.id === key)
  const page = row?.page
  const [saved, setSaved] = useState<Partial<Page> | null>(null)
  const onSaved = useCallback((text?: string) => {
    if (text !== undefined) {
      try {
        setSaved(JSON.parse(text) as Partial<Page>)
      } catch {}
    }
    setSaves((n) => n + 1)
  }, [])
  const narrow = useNarrow()
  const [picked, setPicked] = useState<Partial<Page> | null>(null)
  const onPick = ({ pointer, texts }: PreviewPick) => {
    const fields = picked ? clickableFields(picked) : []
    const hit = pointer
      ? { pointer, section: fields.find((f) => f.pointer === pointer)?.section ?? 'content' }
      : picked
        ? texts.map((t) => fieldForText(picked, t)).find((h) => h)
        : null
    if (!hit) return
    if (tab !== hit.section) select(hit.section)
    setFocus((f) => ({ pointer: hit.pointer, n: (f?.n ?? 0) + 1 }))
  }

  if (files.data && !row) return <NoSuchPage branch={branch} page={key} />
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
          <SourceEditor branch={branch} path={path} onSaved={onSaved} pointer={pointer} />
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
      <PageTitle branch={branch} pageKey={key} page={page} path={path} lookups={lookups} />
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

function NoSuchPage({ branch, page }: { branch: string; page: string }) {
  return (
    <div className="cc-page">
      <ErrorState message={`There is no page "${page}" on this branch.`} />
      <a className="button cc-small" href={ccPath('pages', {}, branch)}>
        All pages
      </a>
    </div>
  )
}

/** The page's key with its actions (duplicate, delete) and the way back to the list. */
function PageTitle({
  branch,
  pageKey,
  page,
  path,
  lookups,
}: {
  branch: string
  pageKey: string
  page: PageInfo | undefined
  path: string
  lookups: { data: PageEditorData | null; reload: () => void }
}) {
  return (
    <div className="cc-title-row">
      <h1>
        Page <code>{pageKey}</code>
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
