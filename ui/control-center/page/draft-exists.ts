import { type Api, branchApi } from '../api'
import type { FileDoc } from '../api-types'

/** Whether `path` has content on the branch, committed or as my draft (a failed read counts as none). */
export function draftExists(api: Api, branch: string, path: string): Promise<boolean> {
  return api<FileDoc>('GET', branchApi(branch, `/file?path=${encodeURIComponent(path)}`)).then(
    (d) => d.text !== null || (d.draft !== null && d.draft.text !== null),
    () => false,
  )
}
