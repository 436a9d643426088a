import { PREVIEW_BRANCH_PARAM, PREVIEW_GRANT_PARAM } from '../../engine/constants'

/** `url` with this page's preview parameters, when it stays on this origin (docs/decisions/0601). */
export function keepPreview(url: string, current: Location = location): string {
  const target = new URL(url, current.href)
  if (target.origin !== current.origin) return url
  const here = new URLSearchParams(current.search)
  for (const name of [PREVIEW_BRANCH_PARAM, PREVIEW_GRANT_PARAM]) {
    const v = here.get(name)
    if (v && !target.searchParams.has(name)) target.searchParams.set(name, v)
  }
  return `${target.pathname}${target.search}${target.hash}`
}
