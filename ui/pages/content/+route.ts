import { defaultContentRoute } from '../content-routes'

export default defaultContentRoute
