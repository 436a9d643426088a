import { contentRoute } from '../content-routes'

export default contentRoute('legal')
