import { ccPath } from '../../../engine/render/control-center-routes'
import type { ArticleListData } from '../../../schemas/generated/cc-answers/articles'
import { ScrollRegion } from '../States'
import { articleOf, STATE_WORDS, slugOf, urlsOf } from './article-paths'

/** The branch's articles: title, URL per brand, author, dates, carrier, state, problems. */
export function ArticleTable({
  data,
  branch,
  selected,
}: {
  data: ArticleListData
  branch: string
  selected: string | null
}) {
  const authorName = (id: string) => data.authors.find((a) => a.id === id)?.name ?? id
  return (
    <ScrollRegion label="Articles">
      <table className="cc-table fw-articles-table" data-testid="article-table">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">URL</th>
            <th scope="col">Author</th>
            <th scope="col">Date</th>
            <th scope="col">Carrier</th>
            <th scope="col">State</th>
            <th scope="col">Problems</th>
          </tr>
        </thead>
        <tbody>
          {data.articles.map((row) => {
            const a = row.article
            const id = articleOf(row.path)
            const slug = a ? slugOf({ id: a.id ?? id, slug: a.slug }) : id
            const urls = urlsOf(data.serving, slug)
            return (
              <tr key={row.path} aria-current={id === selected ? 'true' : undefined}>
                <td>
                  <a href={ccPath('articles', {}, branch, { article: id })}>{a?.title || id}</a>
                </td>
                <td>
                  {urls.length ? (
                    urls.map((u) => (
                      <code key={u.brand} className="fw-art-url">
                        {u.path}
                      </code>
                    ))
                  ) : (
                    <code>{slug}</code>
                  )}
                </td>
                <td>{a ? authorName(a.author) : ''}</td>
                <td>
                  {a?.date}
                  {a?.updated && <small className="muted fw-art-updated-on">updated {a.updated}</small>}
                </td>
                <td>{a?.carrier}</td>
                <td>
                  {STATE_WORDS[row.state]}
                  {row.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
                </td>
                <td>
                  {row.problems ? (
                    <span className="cc-chip cc-chip-error">
                      {row.problems} problem{row.problems === 1 ? '' : 's'}
                    </span>
                  ) : (
                    '0'
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
