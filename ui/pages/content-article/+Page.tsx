import { ArticleTemplate } from '../../templates/ArticleTemplate'

export default function Page() {
  return <ArticleTemplate />
}
