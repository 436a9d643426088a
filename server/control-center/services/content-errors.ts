import type { MergeConflict } from '../../../engine/control-center/content/json-merge'
import { formatDefinitionError } from '../../../engine/snapshot/build-snapshot'
import type { DefinitionError } from '../../../engine/snapshot/types'

/** Errors of the content services carry the HTTP status they answer with (Koa reads `status`). */
export class ContentError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413 | 415 | 422,
    message: string,
  ) {
    super(message)
  }
}

export interface FileConflict {
  path: string
  conflicts: MergeConflict[]
  /** The whole file on each side (null: absent), so the merge dialog can settle it (CONTROL-CENTER §2.5 A). */
  texts?: { base: string | null; theirs: string | null; mine: string | null }
}

/** The same fields were changed on both sides: base, theirs and mine for each, by file and pointer. */
export class MergeConflictError extends ContentError {
  constructor(
    readonly files: FileConflict[],
    what: string,
    /** The head "theirs" is read from: the resolution is committed with it as `expectedHead`. */
    readonly head?: string,
  ) {
    super(
      409,
      `conflict: ${what}; ${files
        .map((f) => `${f.path} ${f.conflicts.map((c) => c.pointer || '/').join(', ')}`)
        .join('; ')}`,
    )
  }
}

/** The exact tree that would go live does not validate: every error as `file:line pointer message`. */
export class PublishRefusedError extends ContentError {
  constructor(readonly errors: DefinitionError[]) {
    super(
      422,
      `publish refused: ${errors.length} error${errors.length === 1 ? '' : 's'}\n${errors.map(formatDefinitionError).join('\n')}`,
    )
  }
}
