import { useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { ArticleListData } from '../../../schemas/generated/cc-answers/articles'
import { branchApi } from '../api'
import { ArticleEditor } from '../articles/ArticleEditor'
import { ArticleTable } from '../articles/ArticleTable'
import { articleOf, FOLDER, pathOf } from '../articles/article-paths'
import { NewArticle } from '../articles/NewArticle'
import { useCc } from '../cc-context'
import { SourceEditor } from '../SourceEditor'
import { Empty, WithResource } from '../States'
import { Tabs } from '../Tabs'
import { useResource } from '../use-resource'
import '../articles.css'

/**
 * `/articles?branch=B`: the branch's articles (title, slug, author, dates, carrier, state, problems),
 * New article, and the editor of the one `&article=<id>` names (or `&file=<path>`, from the Problems
 * panel): the metadata form, the Markdown body in CodeMirror, and a preview rendered by the server's
 * own article page; the Source tab beside it.
 */
export default function ArticlesScreen() {
  const { branch: b, revision } = useCc()
  const branch = b as string
  const q = new URLSearchParams(location.search)
  const file = q.get('file')
  const id = q.get('article') ?? (file?.startsWith(FOLDER) ? articleOf(file) : null)
  const list = useResource<ArticleListData>(branchApi(branch, '/articles'), revision)
  return (
    <div className="cc-page fw-articles">
      <h1>Articles</h1>
      <div className="cc-actions cc-row">
        <NewArticle branch={branch} data={list.data} />
        <a className="button" href={ccPath('content-factory', {}, branch)}>
          Generate with content factory
        </a>
      </div>
      {id && (
        <ArticleDetail
          key={`${branch}:${id}`}
          branch={branch}
          id={id}
          data={list.data}
          pointer={q.get('pointer')}
        />
      )}
      <WithResource resource={list} what="articles">
        {(d) =>
          d.articles.length === 0 ? (
            <Empty>This branch has no articles yet. Start one with New article.</Empty>
          ) : (
            <ArticleTable data={d} branch={branch} selected={id} />
          )
        }
      </WithResource>
    </div>
  )
}

function ArticleDetail({
  branch,
  id,
  data,
  pointer,
}: {
  branch: string
  id: string
  data: ArticleListData | null
  pointer: string | null
}) {
  const [tab, setTab] = useState(pointer ? 'source' : 'form')
  const path = pathOf(id)
  return (
    <section className="cc-card cc-detail fw-art-detail" aria-label={`Article ${id}`}>
      <div className="cc-row cc-row-between">
        <h2 className="cc-h3">
          <code>{path}</code>
        </h2>
        <a className="button cc-small" href={ccPath('articles', {}, branch)}>
          Close
        </a>
      </div>
      <Tabs
        label="Edit the article"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'form', label: 'Article' },
          { id: 'source', label: 'Source' },
        ]}
      >
        {tab === 'form' ? (
          <ArticleEditor branch={branch} path={path} data={data} />
        ) : (
          <SourceEditor branch={branch} path={path} pointer={pointer} />
        )}
      </Tabs>
    </section>
  )
}
