import { pageRoute } from '../page-route'

export default pageRoute('control-center')
