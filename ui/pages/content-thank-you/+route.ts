import { contentRoute } from '../content-routes'

export default contentRoute('thank-you')
