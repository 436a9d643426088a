import { pageRoute } from '../page-route'

export default pageRoute('brand-index')
