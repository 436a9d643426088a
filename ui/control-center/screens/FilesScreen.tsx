import { useEffect, useState } from 'react'
import type { ControlCenterScreen } from '../../../engine/render/control-center-routes'
import { ccPath } from '../../../engine/render/control-center-routes'
import { branchApi, useApi } from '../api'
import { type FileDoc, type FileRow, pagePath } from '../api-types'
import { useCc } from '../cc-context'
import { FileDetail } from '../FileDetail'
import { fileUrl } from '../file-links'
import { Empty, ScrollRegion, WithResource } from '../States'
import { useResource } from '../use-resource'

interface ListDef {
  title: string
  kind: string
  empty: string
}

const LISTS: Partial<Record<ControlCenterScreen, ListDef>> = {
  articles: { title: 'Articles', kind: 'article', empty: 'This branch has no articles.' },
  experiments: { title: 'Experiments', kind: 'experiment', empty: 'This branch has no experiments.' },
  experiment: { title: 'Experiment', kind: 'experiment', empty: '' },
  'phone-rules': { title: 'Phone rules', kind: 'phoneRule', empty: 'This branch has no phone rules.' },
}

/**
 * The definition lists (articles, experiments, phone rules): every file of the kind on
 * this branch, with its state and problems, and its JSON in the Source editor (`&file=`).
 */
export default function FilesScreen() {
  const { route, branch: b } = useCc()
  const branch = b as string
  const screen = route.screen as ControlCenterScreen
  const def = LISTS[screen]!
  const q = new URLSearchParams(location.search)
  const file =
    screen === 'experiment'
      ? `definitions/experiments/${route.params.experiment}.json`
      : screen === 'articles' && q.get('article') && !q.get('file')
        ? `definitions/articles/${q.get('article')}.json`
        : q.get('file')
  return (
    <div className="cc-page">
      <h1>
        {def.title}
        {screen === 'experiment' && (
          <>
            {' '}
            <code>{route.params.experiment}</code>
          </>
        )}
      </h1>
      {screen === 'articles' && (
        <p className="cc-actions">
          <a className="button" href={ccPath('content-factory', {}, branch)}>
            Generate with content factory
          </a>
        </p>
      )}
      {file && screen === 'articles' && <ArticlePreview branch={branch} path={file} />}
      {file && <FileDetail branch={branch} path={file} />}
      {screen !== 'experiment' && <FileList branch={branch} def={def} selected={file} />}
    </div>
  )
}

function FileList({ branch, def, selected }: { branch: string; def: ListDef; selected: string | null }) {
  const { revision } = useCc()
  const files = useResource<{ files: FileRow[] }>(branchApi(branch, `/files?kind=${def.kind}`), revision)
  return (
    <WithResource resource={files} what={def.title.toLowerCase()}>
      {(d) =>
        d.files.length === 0 ? (
          <Empty>{def.empty}</Empty>
        ) : (
          <ScrollRegion label="Files">
            <table className="cc-table" data-testid="file-table">
              <thead>
                <tr>
                  <th scope="col">Id</th>
                  <th scope="col">File</th>
                  <th scope="col">State</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {d.files.map((f) => (
                  <tr key={f.path} aria-current={f.path === selected ? 'true' : undefined}>
                    <td>
                      <a href={fileUrl(f.path, branch)}>{f.id}</a>
                    </td>
                    <td>
                      <code>{f.path}</code>
                    </td>
                    <td>
                      {f.state === 'unchanged' ? '' : f.state}
                      {f.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
                    </td>
                    <td>{f.problems ? <span className="cc-chip cc-chip-error">{f.problems}</span> : '0'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )
      }
    </WithResource>
  )
}

/**
 * Where an article is served on this branch: each brand whose article page (template `article`, e.g.
 * mpa's `/reviews/{slug...}`) would show it, as a preview grant URL (POST /api/cc/previews).
 */
function ArticlePreview({ branch, path }: { branch: string; path: string }) {
  const api = useApi()
  const { revision } = useCc()
  const [links, setLinks] = useState<{ brand: string; path: string; url: string }[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a save (revision) asks for fresh grants
  useEffect(() => {
    let live = true
    setLinks(null)
    setError(null)
    ;(async () => {
      const [doc, pages] = await Promise.all([
        api<FileDoc>('GET', branchApi(branch, `/file?path=${encodeURIComponent(path)}`)),
        api<{ files: FileRow[] }>('GET', branchApi(branch, '/files?kind=page')),
      ])
      const slug = (JSON.parse(doc.draft?.text ?? doc.text ?? '{}') as { slug?: string }).slug
      if (!slug) return []
      const targets = pages.files.flatMap((f) =>
        f.page?.template === 'article' && /\{\w+\.\.\.\}/.test(pagePath(f.page))
          ? f.page.brands.map((brand) => ({
              brand,
              path: pagePath(f.page!).replace(/\{\w+\.\.\.\}/, slug),
            }))
          : [],
      )
      return Promise.all(
        targets.map(async (t) => {
          const r = await api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
            branch,
            drafts: true,
            brand: t.brand,
            path: t.path,
          })
          return { ...t, url: r.urls[t.brand] ?? Object.values(r.urls)[0] }
        }),
      )
    })().then(
      (l) => live && setLinks(l),
      (e: Error) => live && setError(e.message),
    )
    return () => {
      live = false
    }
  }, [api, branch, path, revision])
  if (error) return <p className="cc-form-error">Preview links: {error}</p>
  if (!links) return null
  return (
    <p className="cc-row" data-testid="article-preview">
      {links.length === 0
        ? 'No brand serves this article yet (no article page matches it).'
        : links.map((l) => (
            <a key={l.brand} className="button cc-small" href={l.url} target="_blank" rel="noopener">
              Preview on {l.brand}: <code>{l.path}</code>
            </a>
          ))}
    </p>
  )
}
