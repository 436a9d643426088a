/**
 * The edge of /api/cc/*: every path parameter, query value and upload file name a request brings is
 * checked here, before any handler, git process or SQL statement sees it (issue 27,
 * docs/decisions/0705). A value that could confuse git (`..` segments, a leading `-`, ref syntax) or
 * the database (NUL), or is not text at all (newlines, control characters), is refused with a 400
 * that names the value and what is wrong with it. ccRoute calls checkCcInput for every route, so a
 * new route is covered without a line of its own; a route that knows more about a value (a
 * writable path, an experiment id) checks that on top.
 */
import type { Context } from 'koa'
import { BRANCH_NAME, LIVE_BRANCH } from '../../content/git/branch-name'
import { HttpError } from '../../http/http-error'

/** Longest query value or id the control center sends (a content path is the longest). */
export const CC_INPUT_MAX_CHARS = 1024

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** How a character is shown in a message: `U+000A (newline)`. */
function describeChar(c: string): string {
  const names: Record<string, string> = {
    '\u0000': 'NUL',
    '\n': 'newline',
    '\r': 'carriage return',
    '\t': 'tab',
  }
  const code = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
  return names[c] ? `${code} (${names[c]})` : code
}

/** Throws a 400 `<where>: <problem>`. */
function refuse(where: string, problem: string): never {
  throw new HttpError(400, `${where}: ${problem}`)
}

/** Any text value: bounded, no control characters, no unpaired surrogate. */
export function checkText(where: string, value: string, max = CC_INPUT_MAX_CHARS): void {
  if (value.length > max) refuse(where, `is ${value.length} characters long; at most ${max} are taken`)
  const control = CONTROL.exec(value)
  if (control) refuse(where, `contains the control character ${describeChar(control[0])}`)
  if (LONE_SURROGATE.test(value)) refuse(where, 'contains an unpaired surrogate (not valid Unicode text)')
}

/** A branch name: `live`, or a staff branch's name (lower-case letters, digits, dashes). */
export function checkBranchInput(where: string, value: string): void {
  checkText(where, value)
  if (value === LIVE_BRANCH || BRANCH_NAME.test(value)) return
  if (value.startsWith('-')) refuse(where, `branch name "${value}" must not start with "-"`)
  refuse(
    where,
    `"${value}" is not a branch name: "live" or 1–63 lower-case letters, digits or dashes, starting with a letter or digit`,
  )
}

/**
 * A path in the content repository: relative, `/`-separated, no empty, `.` or `..` segment, no `.git`,
 * no backslash, no segment starting with `-`.
 */
export function checkPathInput(where: string, value: string): void {
  checkText(where, value)
  if (!value) refuse(where, 'is empty; expected a path such as definitions/pages/home.json')
  if (value.startsWith('/')) refuse(where, `"${value}" must be relative (no leading "/")`)
  if (value.includes('\\')) refuse(where, `"${value}" must use "/" between folders, not "\\"`)
  for (const segment of value.split('/')) {
    if (segment === '..') refuse(where, `"${value}" must not contain ".." segments`)
    if (segment === '.') refuse(where, `"${value}" must not contain "." segments`)
    if (segment === '') refuse(where, `"${value}" must not contain an empty segment ("//" or a trailing "/")`)
    if (segment === '.git') refuse(where, `"${value}" must not reach into .git`)
    if (segment.startsWith('-')) refuse(where, `"${value}": a segment must not start with "-"`)
  }
}

/** An id in a path (an image, a run, an experiment): one segment, not `.`/`..`, no leading `-`. */
export function checkIdInput(where: string, value: string): void {
  checkText(where, value)
  if (!value) refuse(where, 'is empty')
  if (value === '.' || value === '..') refuse(where, `"${value}" is not an id`)
  if (value.includes('/') || value.includes('\\')) refuse(where, `"${value}" must not contain "/" or "\\"`)
  if (value.startsWith('-')) refuse(where, `"${value}" must not start with "-"`)
}

/** An uploaded file's name (as sent, percent-decoded): text; the image library keeps 255 characters. */
export function checkFileNameInput(where: string, value: string): void {
  checkText(where, value)
}

/** A date-time bound (`?since`, `?until`): ISO 8601 with a time zone, or a calendar date (UTC midnight). */
export function checkIsoDateInput(where: string, value: string): void {
  checkText(where, value, 40)
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/
  if (!iso.test(value) || Number.isNaN(Date.parse(value)))
    refuse(where, `"${value}" is not an ISO date; send e.g. 2026-11-01 or 2026-11-01T00:00:00Z`)
}

/** Query values with more to them than text (a Map: a query name is never a prototype key). */
const QUERY_CHECKS = new Map<string, (where: string, value: string) => void>([
  ['path', checkPathInput],
  ['branch', checkBranchInput],
  ['since', checkIsoDateInput],
  ['until', checkIsoDateInput],
])
/** Path parameters by name (`:b` is always a branch); any other is an id. */
const PARAM_CHECKS = new Map<string, (where: string, value: string) => void>([['b', checkBranchInput]])

/**
 * Checks a control-center request's path parameters, query values and `X-Filename` before its
 * handler runs; throws a 400 naming the first bad value.
 */
export function checkCcInput(ctx: Context): void {
  for (const [name, value] of Object.entries((ctx.params ?? {}) as Record<string, string>))
    (PARAM_CHECKS.get(name) ?? checkIdInput)(`:${name}`, value)
  for (const [name, value] of Object.entries(ctx.query)) {
    checkText(`query parameter name "${name.slice(0, 40)}"`, name, 100)
    if (Array.isArray(value)) refuse(`?${name}`, 'is given more than once; send it once')
    // An empty value is an absent one to the handlers (or their own "is required").
    if (value === undefined || value === '') continue
    ;(QUERY_CHECKS.get(name) ?? checkText)(`?${name}`, value)
  }
  const fileName = ctx.get('x-filename')
  if (fileName) {
    let decoded: string
    try {
      decoded = decodeURIComponent(fileName)
    } catch {
      refuse('X-Filename', 'is not valid percent-encoding')
    }
    checkFileNameInput('X-Filename', decoded)
  }
}
