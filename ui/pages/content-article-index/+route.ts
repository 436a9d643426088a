import { contentRoute } from '../content-routes'

export default contentRoute('article-index')
