import { useEffect, useState } from 'react'
import type { Author } from '../../../schemas/generated/author'
import type { FileDoc } from '../../../schemas/generated/cc-answers/branches'
import type { FileRow } from '../../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from '../api'
import type { Resource } from '../use-resource'

export interface AuthorEntry {
  path: string
  /** The author as committed on the branch (null when its JSON does not parse). */
  author: Author | null
  problems: number
  draft: boolean
}

/** The branch's authors, each read from its definition file. */
export function useAuthors(branch: string, key: unknown = 0): Resource<AuthorEntry[]> {
  const api = useApi()
  const [tick, setTick] = useState(0)
  const [state, setState] = useState<{ data: AuthorEntry[] | null; error: string | null }>({
    data: null,
    error: null,
  })
  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` and `key` ask again
  useEffect(() => {
    let live = true
    ;(async () => {
      const { files } = await api<{ files: FileRow[] }>('GET', branchApi(branch, '/files?kind=author'))
      const entries = await Promise.all(
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
      return entries
    })().then(
      (data) => live && setState({ data, error: null }),
      (e: Error) => live && setState({ data: null, error: e.message }),
    )
    return () => {
      live = false
    }
  }, [api, branch, tick, key])
  return {
    ...state,
    loading: state.data === null && state.error === null,
    reload: () => setTick((t) => t + 1),
  }
}
