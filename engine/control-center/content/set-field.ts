import { applyEdits, type FormattingOptions, modify } from 'jsonc-parser'
import { pointerToPath } from '../../definitions/locate'

/** The indentation a document already uses (two spaces when it has none yet). */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  }
}

/**
 * Sets (or, with `undefined`, removes) the value at a JSON pointer by editing the text in place,
 * so key order, indentation and every other line stay as written: a one-field change is a
 * one-line diff (CONTROL-CENTER §2.2). `/a/-` appends to an array.
 *
 * @example setField('{\n  "headline": "Old"\n}\n', '/headline', 'New') // '{\n  "headline": "New"\n}\n'
 */
export function setField(fileText: string, pointer: string, value: unknown): string {
  const path = pointerToPath(pointer)
  if (!path.length) {
    if (value === undefined) throw new Error('cannot remove the whole document')
    return `${JSON.stringify(value, null, 2)}\n`
  }
  const last = path[path.length - 1]
  const editPath = last === '-' ? [...path.slice(0, -1), -1] : path
  const edits = modify(fileText, editPath, value, {
    formattingOptions: formattingOf(fileText),
    isArrayInsertion: last === '-',
  })
  return applyEdits(fileText, edits)
}
