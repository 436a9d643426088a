/* Generated from schemas/api-error.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * The body of every API error answer (server/http/http-error.ts): a message naming what is wrong, the status again, and every problem when there are several.
 */
export interface ApiError {
  error: string
  status: number
  problems?: string[]
}
