/**
 * The page's resolution travels from the server render to the client entry in a JSON script
 * (docs/decisions/0507). Shared by +onRenderHtml (writes), ui/pages/hydrate.tsx (reads) and tests.
 */
export const RESOLUTION_SCRIPT_ID = 'page-resolution'

/**
 * JSON safe to place inside `<script type="application/json">`: `<`, `>`, `&` and the JavaScript line
 * separators are escaped, so no definition text can close the script element or start a comment.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
