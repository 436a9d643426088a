/**
 * The control center's own numbers (from CONTROL-CENTER.md, not the spec). Kept out of
 * engine/constants.ts, which every public page's shell chunk carries whole.
 */

/** The preview viewports (Payload's breakpoints, CONTROL-CENTER §1.4). */
export const CC_PREVIEW_VIEWPORTS = [375, 768, 1280] as const
/**
 * The articles editor asks the server for a fresh preview this long after typing stops: with the
 * server's render, the pane follows typing well within CONTROL-CENTER §8's ~1.5 s.
 */
export const ARTICLE_PREVIEW_DEBOUNCE_MS = 300
