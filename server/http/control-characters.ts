/**
 * NUL and the other C0 control characters (and DEL) have no place in a URL we serve or a value we
 * keep: PostgreSQL refuses a NUL in text and JSON (a 500 before, issue 36), and no page, step or
 * tracked parameter holds one. A request whose path or query carries one, percent-encoded (a raw one
 * never passes Node's parser), is refused with a 400 before anything reads it.
 */
import type { Middleware } from 'koa'
import { HttpError } from './http-error'

/** A percent-encoded C0 control character or DEL. */
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i
/** A C0 control character or DEL, except tab, line feed and carriage return (a textarea's own). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export function refuseControlCharacters(): Middleware {
  return (ctx, next) => {
    // The control center's API checks its own parameters and names the one at fault (decision 0705).
    if (ctx.path.startsWith('/api/cc/')) return next()
    if (ENCODED_CONTROL.test(ctx.url))
      throw new HttpError(
        400,
        'URL: contains a control character (such as NUL); no page or parameter has one',
      )
    return next()
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * The name of the first form field whose name holds a control character, or whose value holds one
 * other than tab, line feed or carriage return; null when none does.
 */
export function controlCharacterField(form: URLSearchParams): string | null {
  for (const [name, value] of form)
    if (CONTROL.test(name) || CONTROL_IN_TEXT.test(value)) return name.replace(new RegExp(CONTROL, 'g'), '?')
  return null
}
