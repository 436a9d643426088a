import { type ParseErrorCode, visit } from 'jsonc-parser'

/** A JSON syntax error said in words, at the offset where the parser stopped. */
export interface SyntaxProblem {
  offset: number
  message: string
}

type Container = { kind: 'object' | 'array'; lastProperty?: string; items: number }

const quote = (s: string) => JSON.stringify(s)

/**
 * The first syntax error of a JSON text, described for the person who typed it: what was expected and
 * where ("expected a comma or `}` after the value of "title""), rather than the parser's code
 * (`CommaExpected`). Later errors are almost always consequences of the first, so only the first is told.
 */
export function firstSyntaxError(text: string): SyntaxProblem | null {
  const stack: Container[] = []
  let found: SyntaxProblem | null = null
  visit(
    text,
    {
      onObjectBegin: () => {
        if (!found) stack.push({ kind: 'object', items: 0 })
      },
      onArrayBegin: () => {
        if (!found) stack.push({ kind: 'array', items: 0 })
      },
      onObjectEnd: () => {
        if (!found) stack.pop()
      },
      onArrayEnd: () => {
        if (!found) stack.pop()
      },
      onObjectProperty: (name) => {
        if (found) return
        const top = stack.at(-1)
        if (top) {
          top.lastProperty = name
          top.items++
        }
      },
      onLiteralValue: () => {
        if (found) return
        const top = stack.at(-1)
        if (top?.kind === 'array') top.items++
      },
      onError: (code, offset) => {
        if (found) return
        const top = stack.at(-1)
        const comma = trailingCommaBefore(text, offset)
        found =
          comma !== null && (code === 3 || code === 4) && top
            ? {
                offset: comma,
                message:
                  top.kind === 'array'
                    ? 'a comma after the last item of a list is not allowed in JSON: remove it'
                    : `a comma after the last property${top.lastProperty !== undefined ? ` (${quote(top.lastProperty)})` : ''} is not allowed in JSON: remove it`,
              }
            : { offset, message: describe(code, top, text, offset) }
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  )
  return found
}

function describe(code: ParseErrorCode, top: Container | undefined, text: string, offset: number): string {
  const after =
    top?.kind === 'object' && top.lastProperty !== undefined
      ? ` after the value of ${quote(top.lastProperty)}`
      : ''
  const found = describeFound(text, offset)
  switch (code) {
    case 6: // CommaExpected
      return top?.kind === 'array'
        ? `expected a comma or \`]\` after item ${top.items} of the list, found ${found}`
        : `expected a comma or \`}\`${after}, found ${found}`
    case 3: // PropertyNameExpected
      return `expected a property name in double quotes${after}, found ${found}`
    case 4: // ValueExpected
      return `expected a value (a string in double quotes, number, true, false, null, object or list)${after ? ` for the property${after.replace(' after the value of', '')}` : ''}, found ${found}`
    case 5: // ColonExpected
      return `expected a colon after the property name ${top?.lastProperty !== undefined ? quote(top.lastProperty) : ''}, found ${found}`.replace(
        '  ',
        ' ',
      )
    case 7: // CloseBraceExpected
      return `expected \`}\` to close the object${after}, found ${found}`
    case 8: // CloseBracketExpected
      return `expected \`]\` to close the list, found ${found}`
    case 9: // EndOfFileExpected
      return `expected the end of the file after the top-level value, found ${found}`
    case 1: // InvalidSymbol
      return `${found} is not valid JSON here${/^\s*'/.test(text.slice(offset)) ? ' (strings need double quotes)' : ''}`
    case 2: // InvalidNumberFormat
      return `invalid number ${found}`
    case 10: // InvalidCommentToken
    case 11: // UnexpectedEndOfComment
      return 'comments are not allowed in JSON definition files'
    case 12: // UnexpectedEndOfString
      return 'a string is not closed: add the closing double quote (a line break inside a string must be written \\n)'
    case 13: // UnexpectedEndOfNumber
      return 'a number ends too early'
    case 14: // InvalidUnicode
      return 'invalid \\u escape: it needs four hexadecimal digits'
    case 15: // InvalidEscapeCharacter
      return 'invalid escape in a string: only \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX are allowed'
    case 16: // InvalidCharacter
      return 'a control character (such as a tab or line break) inside a string must be escaped'
    default:
      return `invalid JSON at ${found}`
  }
}

/** Offset of a comma directly before a closing `}` or `]` at `offset` (only white space between), or null. */
function trailingCommaBefore(text: string, offset: number): number | null {
  if (!/^\s*[\]}]/.test(text.slice(offset))) return null
  let i = offset - 1
  while (i >= 0 && /\s/.test(text[i])) i--
  return text[i] === ',' ? i : null
}

function describeFound(text: string, offset: number): string {
  const rest = text.slice(offset)
  if (!rest.trim()) return 'the end of the file'
  const token = /^\s*("(?:[^"\\\n]|\\.)*"?|[^\s,:{}[\]"]+|.)/.exec(rest)?.[1] ?? rest[0]
  return token.length > 40 ? `${token.slice(0, 40)}…` : token.startsWith('"') ? token : `\`${token}\``
}
