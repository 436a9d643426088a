import { hydratePage } from '../hydrate'
import Page from './+Page'

hydratePage(Page)
