import { ArticleIndexTemplate } from '../../templates/ArticleIndexTemplate'

export default function Page() {
  return <ArticleIndexTemplate />
}
