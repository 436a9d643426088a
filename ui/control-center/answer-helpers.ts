/**
 * Small readings of the control center's API answers. The answers' types are generated from their
 * schemas (schemas/cc-answers, schemas/generated/cc-answers; docs/decisions/0975).
 */
import type { DefinitionError, PageInfo } from '../../schemas/generated/cc-answers/common'
import type { RunStatus } from '../../schemas/generated/cc-answers/runs'

/** An error's 1-based column (0, "not placed", reads as 1); `col` for the positions the editor makes itself. */
export const colOf = (e: Partial<Pick<DefinitionError, 'column'>> & { col?: number }) =>
  e.column || e.col || 1

/** The route of a page: its path, or `/<key>` when it names none. */
export const pagePath = (p: Pick<PageInfo, 'key' | 'path'>) => p.path ?? `/${p.key}`

export const FINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled']
export const isFinal = (s: RunStatus) => FINAL_STATUSES.includes(s)

/** How many generation attempts a run may make (the first plus one repair; engine MAX_REPAIRS + 1). */
export const MAX_ATTEMPTS = 2
