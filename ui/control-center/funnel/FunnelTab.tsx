import type { PageInfo } from '../api-types'
import { Empty } from '../States'

/** The page editor's Funnel tab: placeholder until the funnel and step editor lands. */
export function FunnelTab({ page }: { branch: string; page: PageInfo | undefined }) {
  return <Empty>{page ? 'The funnel editor is not built yet.' : 'This page has no funnel.'}</Empty>
}
