import type { FileDoc } from '../../../schemas/generated/cc-answers/branches'
import { type Api, branchApi } from '../api'

/** Whether `path` has content on the branch, committed or as my draft (a failed read counts as none). */
export function draftExists(api: Api, branch: string, path: string): Promise<boolean> {
  return api<FileDoc>('GET', branchApi(branch, `/file?path=${encodeURIComponent(path)}`)).then(
    (d) => d.text !== null || (d.draft !== null && d.draft.text !== null),
    () => false,
  )
}
