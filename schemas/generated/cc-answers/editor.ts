/* Generated from schemas/cc-answers/editor.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { DefinitionError, Sha } from './common'
export type { DefinitionError, Sha }

/**
 * Answers of the editors' reads beyond one file (server/api/control-center/editor.ts). Each property names one answer.
 */
export interface CcEditorAnswers {
  FunnelEditorData?: FunnelEditorData
  PageEditorData?: PageEditorData
}
/**
 * GET /api/cc/branches/:b/funnel-editor (`?funnel=` or `?page=`): everything the funnel editor needs in one answer.
 *
 * This interface was referenced by `CcEditorAnswers`'s JSON-Schema
 * via the `definition` "FunnelEditorData".
 */
export interface FunnelEditorData {
  head: Sha
  /**
   * The funnel asked for, or the one the page names in `form`; null if none.
   */
  funnel: string | null
  funnels: FunnelDoc[]
  /**
   * The step library, with each shared step's own values.
   */
  steps: StepDoc[]
  /**
   * Pages and the funnel each runs, for "Shared by N funnels on M brands".
   */
  pages: {
    key: string
    form: string | null
    brands: string[]
    experiment: string | null
  }[]
}
/**
 * A funnel of the branch as an editor reads it: my draft when I have one, else the branch's.
 *
 * This interface was referenced by `CcEditorAnswers`'s JSON-Schema
 * via the `definition` "FunnelDoc".
 */
export interface FunnelDoc {
  id: string
  path: string
  /**
   * The document as saved (a draft need not be valid yet: `errors` says why); null when the text is not a JSON object.
   */
  doc: import('../funnel').Funnel | null
  draft: boolean
  errors: DefinitionError[]
}
/**
 * A shared step of the branch as an editor reads it: my draft when I have one, else the branch's.
 *
 * This interface was referenced by `CcEditorAnswers`'s JSON-Schema
 * via the `definition` "StepDoc".
 */
export interface StepDoc {
  id: string
  path: string
  /**
   * The document as saved (a draft need not be valid yet: `errors` says why); null when the text is not a JSON object.
   */
  doc: import('../step').Step | null
  draft: boolean
  errors: DefinitionError[]
}
/**
 * GET /api/cc/branches/:b/page-editor?page=: the page editor's lookups.
 *
 * This interface was referenced by `CcEditorAnswers`'s JSON-Schema
 * via the `definition` "PageEditorData".
 */
export interface PageEditorData {
  head: Sha
  /**
   * Public brands, to serve the page on.
   */
  brands: {
    id: string
    name: string
  }[]
  funnels: string[]
  experiments: {
    id: string
    status: string
    description: string
    variants: string[]
  }[]
  /**
   * What names the page: Delete is refused while this is not empty.
   */
  references: {
    file: string
    pointer: string
    reason: string
  }[]
  /**
   * The step names of the page's funnel, in order (empty when it runs none).
   */
  steps: string[]
}
