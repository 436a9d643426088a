import type { FileDoc } from '../../../schemas/generated/cc-answers/branches'
import { type Api, branchApi } from '../api'
import { jsonText } from '../use-json-draft'

/** The file of page `key`. */
export const pageFile = (key: string) => `definitions/pages/${key}.json`

/**
 * Writes a new page as my draft on the branch, refusing a key a page (or my draft of one) already
 * has: what New page and Duplicate both do before opening the page editor.
 */
export async function writeNewPageDraft(
  api: Api,
  branch: string,
  key: string,
  doc: Record<string, unknown>,
): Promise<void> {
  const target = pageFile(key)
  const exists = await api<FileDoc>(
    'GET',
    branchApi(branch, `/file?path=${encodeURIComponent(target)}`),
  ).then(
    (d) => d.text !== null || (d.draft !== null && d.draft.text !== null),
    () => false,
  )
  if (exists) throw new Error(`A page "${key}" already exists on this branch: choose another key.`)
  await api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(target)}`), { text: jsonText(doc) })
}
