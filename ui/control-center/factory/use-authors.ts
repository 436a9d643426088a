import type { Author } from '../../../schemas/generated/author'
import type { FileDoc } from '../../../schemas/generated/cc-answers/branches'
import type { FileRow } from '../../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from '../api'
import { usePoll } from '../use-poll'
import type { Resource } from '../use-resource'

export interface AuthorEntry {
  path: string
  /** The author as committed on the branch (null when its JSON does not parse). */
  author: Author | null
  problems: number
  draft: boolean
}

/** The branch's authors, each read from its definition file (one read of the poll machine: use-poll.ts). */
export function useAuthors(branch: string, key: unknown = 0): Resource<AuthorEntry[]> {
  const api = useApi()
  const poll = usePoll<AuthorEntry[]>(
    async () => {
      const { files } = await api<{ files: FileRow[] }>('GET', branchApi(branch, '/files?kind=author'))
      const data = await Promise.all(
        files
          .filter((f) => f.state !== 'deleted')
          .map(async (f): Promise<AuthorEntry> => {
            const doc = await api<FileDoc>(
              'GET',
              branchApi(branch, `/file?path=${encodeURIComponent(f.path)}`),
            )
            let author: Author | null = null
            try {
              author = doc.text ? (JSON.parse(doc.text) as Author) : null
            } catch {}
            return { path: f.path, author, problems: f.problems, draft: f.draft }
          }),
      )
      return { data, more: false }
    },
    { more: false },
    `${branch}\0${JSON.stringify(key ?? null)}`,
  )
  return {
    data: poll.failed ? null : poll.data,
    error: poll.failed ? poll.error : null,
    loading: poll.data === null && !poll.failed,
    reload: poll.refresh,
  }
}
