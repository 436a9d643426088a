import { pageRoute } from '../page-route'

export default pageRoute('content-home')
