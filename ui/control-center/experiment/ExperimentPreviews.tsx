import { useEffect, useState } from 'react'
import type { ExperimentListRow, ExperimentResults } from '../../../schemas/generated/cc-answers/experiments'
import { useApi } from '../api'
import { Empty, ErrorState, Loading } from '../States'

/** A preview link per variant on a brand's host: a signed branch preview with `fw_variant`. */
export function ExperimentPreviews({
  branch,
  row,
  results,
}: {
  branch: string
  row: ExperimentListRow
  results: ExperimentResults | null
}) {
  const api = useApi()
  const brands = row.brands ?? []
  const [brand, setBrand] = useState(brands[0] ?? '')
  const [url, setUrl] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const pathOf = (results?.experiment.pagePath ?? `/${row.page}`).replace(/\/\{[^}]*\}.*$/, '') || '/'
  useEffect(() => {
    if (!brand) return
    let live = true
    setUrl(null)
    setError(null)
    api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
      branch,
      drafts: true,
      brand,
      path: pathOf,
    }).then(
      (r) => live && setUrl(r.urls[brand] ?? Object.values(r.urls)[0] ?? null),
      (e: Error) => live && setError(e.message),
    )
    return () => {
      live = false
    }
  }, [api, branch, brand, pathOf])
  const withVariant = (u: string, v: string) => {
    const x = new URL(u)
    x.searchParams.set('fw_variant', v)
    return x.toString()
  }
  if (!brands.length) return <Empty>The page has no brand to preview it on.</Empty>
  return (
    <div className="stack">
      <label className="cc-field cc-inline">
        <span>Brand</span>
        <select value={brand} onChange={(e) => setBrand(e.target.value)}>
          {brands.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
      </label>
      <p className="muted cc-exp-small">
        Each link shows the page on {brand} as one variant, from branch {branch} with your unsaved changes. A
        preview is not counted and does not assign the variant. Links expire after a while; open this tab
        again for new ones.
      </p>
      {error ? (
        <ErrorState message={error} />
      ) : !url ? (
        <Loading what="preview links" />
      ) : (
        <ul className="cc-list" data-testid="variant-previews">
          {(row.variants ?? []).map((v) => (
            <li key={v.id}>
              <a href={withVariant(url, v.id)} target="_blank" rel="noopener">
                Preview {v.id}
              </a>{' '}
              <span className="muted cc-exp-small">
                {results?.experiment.variants.find((d) => d.id === v.id)?.overrides?.headline ??
                  (v.id === 'control' ? 'the page as written' : '')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
