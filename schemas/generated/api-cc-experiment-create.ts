/* Generated from schemas/api-cc-experiment-create.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches/:b/experiments: a new draft experiment on a page, committed on the branch.
 */
export interface ApiCcExperimentCreate {
  /**
   * The experiment's id and file name (definitions/experiments/<id>.json).
   */
  id: string
  /**
   * Key of the page under test.
   */
  page: string
  /**
   * The hypothesis.
   */
  description: string
  /**
   * Id of the variant next to control.
   */
  variant: string
  /**
   * The variant's headline (its one override).
   */
  headline: string
  /**
   * The branch head seen.
   */
  expectedHead?: string
}
