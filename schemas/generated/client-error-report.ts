/* Generated from schemas/client-error-report.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/client-errors (spec point 9, docs/decisions/0504): one error the browser saw. The server trims the stack and every line again.
 */
export interface ClientErrorReport {
  /**
   * Error message, one line.
   */
  message: string
  /**
   * Trimmed stack, newline separated.
   */
  stack?: string
  /**
   * error (uncaught), rejection (unhandled promise), mount, render, chunk (a failed chunk load).
   */
  kind: 'error' | 'rejection' | 'mount' | 'render' | 'chunk'
  /**
   * Page URL (path and query).
   */
  url: string
  buildId?: string
}
