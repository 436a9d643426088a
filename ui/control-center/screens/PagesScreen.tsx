import { useMemo, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type { FileRow } from '../../../schemas/generated/cc-answers/common'
import { pagePath } from '../answer-helpers'
import { branchApi } from '../api'
import { useCc } from '../cc-context'
import { FileDetail } from '../FileDetail'
import { NewPageDialog } from '../page/NewPageDialog'
import { Empty, ScrollRegion, WithResource } from '../States'
import { useResource } from '../use-resource'

const STATE_LABEL: Record<FileRow['state'], string> = {
  unchanged: '',
  added: 'added',
  modified: 'changed',
  deleted: 'deleted',
}

/** `/pages?branch=B`: every page with its state on this branch, with filters. */
export default function PagesScreen() {
  const { branch: b, revision, may, offerBranch } = useCc()
  const [creating, setCreating] = useState(false)
  const branch = b as string
  const q0 = new URLSearchParams(location.search)
  const file = q0.get('file')
  const files = useResource<{ head: string; files: FileRow[] }>(
    branchApi(branch, '/files?kind=page'),
    revision,
  )
  const [f, setF] = useState({ brand: '', template: '', changed: false, problems: false, text: '' })
  const all = files.data?.files ?? []
  const brands = useMemo(() => [...new Set(all.flatMap((r) => r.page?.brands ?? []))].sort(), [all])
  const templates = useMemo(
    () => [...new Set(all.map((r) => r.page?.template ?? ''))].filter(Boolean).sort(),
    [all],
  )
  const text = f.text.trim().toLowerCase()
  const rows = all.filter((r) => {
    const p = r.page
    if (f.brand && !p?.brands.includes(f.brand)) return false
    if (f.template && p?.template !== f.template) return false
    if (f.changed && r.state === 'unchanged' && !r.draft) return false
    if (f.problems && r.problems === 0) return false
    if (text) {
      const hay = [r.id, p ? pagePath(p) : '', ...(p?.aliases ?? []), p?.title, p?.headline]
        .join(' ')
        .toLowerCase()
      if (!hay.includes(text)) return false
    }
    return true
  })
  return (
    <div className="cc-page">
      <div className="cc-title-row">
        <h1>Pages</h1>
        {may('branch.edit') && (
          <button
            type="button"
            className="button button-primary cc-small"
            // Live is read-only: a new page starts on a branch.
            onClick={() => (branch === LIVE_BRANCH_NAME ? offerBranch() : setCreating(true))}
          >
            New page
          </button>
        )}
      </div>
      {creating && <NewPageDialog branch={branch} onClose={() => setCreating(false)} />}
      {file && <FileDetail branch={branch} path={file} />}
      <form className="cc-filters" aria-label="Filter pages" onSubmit={(e) => e.preventDefault()}>
        <label className="cc-field">
          <span>Search</span>
          <input type="search" value={f.text} onChange={(e) => setF({ ...f, text: e.target.value })} />
        </label>
        <label className="cc-field">
          <span>Brand</span>
          <select value={f.brand} onChange={(e) => setF({ ...f, brand: e.target.value })}>
            <option value="">All brands</option>
            {brands.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </label>
        <label className="cc-field">
          <span>Template</span>
          <select value={f.template} onChange={(e) => setF({ ...f, template: e.target.value })}>
            <option value="">All templates</option>
            {templates.map((x) => (
              <option key={x}>{x}</option>
            ))}
          </select>
        </label>
        <label className="cc-check">
          <input
            type="checkbox"
            checked={f.changed}
            onChange={(e) => setF({ ...f, changed: e.target.checked })}
          />
          Changed on this branch
        </label>
        <label className="cc-check">
          <input
            type="checkbox"
            checked={f.problems}
            onChange={(e) => setF({ ...f, problems: e.target.checked })}
          />
          Has problems
        </label>
      </form>
      <WithResource resource={files} what="pages">
        {() =>
          rows.length === 0 ? (
            <Empty>{all.length === 0 ? 'This branch has no pages.' : 'No page matches the filters.'}</Empty>
          ) : (
            <PageTable rows={rows} total={all.length} branch={branch} />
          )
        }
      </WithResource>
    </div>
  )
}

/** The filtered pages: a table on a wide screen, one card per page on a phone. */
function PageTable({ rows, total, branch }: { rows: FileRow[]; total: number; branch: string }) {
  return (
    <ScrollRegion label="Pages">
      <table className="cc-table cc-cards" data-testid="page-table">
        <caption className="muted">
          {rows.length} of {total} pages
        </caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Path and aliases</th>
            <th scope="col">Template</th>
            <th scope="col">Brands</th>
            <th scope="col">State</th>
            <th scope="col">Problems</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.path}>
              <td>
                <a href={ccPath('page', { page: r.id }, branch)}>{r.page?.key ?? r.id}</a>
                {r.page?.experiment && <span className="cc-chip">experiment {r.page.experiment}</span>}
              </td>
              <td data-label="Path and aliases">
                <code>{r.page ? pagePath(r.page) : ''}</code>
                {(r.page?.aliases ?? []).map((a) => (
                  <div key={a} className="muted">
                    <code>{a}</code>
                  </div>
                ))}
              </td>
              <td data-label="Template">{r.page?.template}</td>
              <td data-label="Brands">
                <span className="cc-chips">
                  {(r.page?.brands ?? []).map((x) => (
                    <span key={x} className="cc-chip">
                      {x}
                    </span>
                  ))}
                </span>
              </td>
              <td data-label="State">
                {STATE_LABEL[r.state]}
                {r.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
              </td>
              <td data-label="Problems">
                {r.problems ? <span className="cc-chip cc-chip-error">{r.problems}</span> : '0'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
