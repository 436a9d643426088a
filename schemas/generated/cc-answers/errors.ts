/* Generated from schemas/cc-answers/errors.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Conflict, DefinitionError, FileConflicts, Sha } from './common'
export type { Conflict, DefinitionError, FileConflicts, Sha }
import type { ImageUse } from './images'
export type { ImageUse }

/**
 * Any /api/cc/* refusal.
 *
 * This interface was referenced by `CcErrorAnswers`'s JSON-Schema
 * via the `definition` "CcError".
 */
export type CcError = ApiError | CcConflictError | CcPublishRefusedError | CcImageInUseError
/**
 * The bodies of /api/cc/* refusals: the API's error (schemas/api-error.schema.json), or one of the control center's with more to say. Each property names one answer.
 */
export interface CcErrorAnswers {
  CcError?: CcError
}
/**
 * The body of every API error answer (server/http/http-error.ts): a message naming what is wrong, the status again, and every problem when there are several.
 */
export interface ApiError {
  error: string
  status: number
  problems?: string[]
}
/**
 * 409: the same fields changed on both sides; `head` is the one to commit a resolution on.
 *
 * This interface was referenced by `CcErrorAnswers`'s JSON-Schema
 * via the `definition` "CcConflictError".
 */
export interface CcConflictError {
  error: string
  status: 409
  problems?: string[]
  head?: Sha
  conflicts: FileConflicts[]
}
/**
 * 422: the publish gates refused; every error at its file, line and pointer.
 *
 * This interface was referenced by `CcErrorAnswers`'s JSON-Schema
 * via the `definition` "CcPublishRefusedError".
 */
export interface CcPublishRefusedError {
  error: string
  status: 422
  problems?: string[]
  errors: DefinitionError[]
}
/**
 * 409: the image is still used.
 *
 * This interface was referenced by `CcErrorAnswers`'s JSON-Schema
 * via the `definition` "CcImageInUseError".
 */
export interface CcImageInUseError {
  error: string
  status: 409
  problems?: string[]
  usedBy: ImageUse[]
}