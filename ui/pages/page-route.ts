import type { PageContext } from 'vike/types'
import type { PageId } from '../../engine/render/resolution'

/**
 * The route function of `ui/pages/<id>/`: the server already chose the page
 * (server/render/templates.ts); Vike only reads its choice.
 */
export const pageRoute = (id: PageId) => (pageContext: PageContext) => pageContext.resolution?.pageId === id
