import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import type { asFileConflicts } from '../Conflicts'

export type BranchDialog = null | 'preview' | 'merge' | 'publish' | 'schedule' | 'archive'

/** What the branch's dialogs share: the write in flight, its refusal, and how to post one. */
export interface BranchWrite {
  busy: boolean
  error: string | null
  /** Field errors of a refusal (422). */
  errors: DefinitionError[]
  conflicts: ReturnType<typeof asFileConflicts>
  /** POSTs `body` to the branch's `path`; then the dialog closes, `done` shows, and the screen reloads. */
  post: (path: string, body: object, done: string) => void
  close: () => void
}

/** Gates that only ran out of time block too, except for an admin, who may publish past them. */
export const onlyBudget = (list: DefinitionError[]) => list.length > 0 && list.every((e) => e.budget === true)
