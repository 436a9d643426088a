/* Generated from schemas/api-cc-branch-create.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches: a new staff branch.
 */
export interface ApiCcBranchCreate {
  /**
   * What the branch is for, e.g. Spring promo.
   */
  title: string
  /**
   * The branch name; default: the title slugged (Spring promo → spring-promo).
   */
  name?: string
  description?: string
  /**
   * Branch to start from (default live).
   */
  base?: string
}
