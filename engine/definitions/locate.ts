import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser'
import { firstSyntaxError } from './syntax-error'

export interface SourcePosition {
  line: number
  column: number
}

/** Splits a JSON pointer ("/steps/0/name") into path segments, numbers for array indexes. */
export function pointerToPath(pointer: string): (string | number)[] {
  if (!pointer) return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

/** The pointer of `property` inside the value at `pointer`, escaped as RFC 6901 asks. */
export function childPointer(pointer: string, property: string): string {
  return `${pointer}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`
}

export function offsetToPosition(text: string, offset: number): SourcePosition {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

/** A parsed JSON document that can tell where each pointer sits in its source text. */
export class LocatedJson {
  readonly tree: Node | undefined
  readonly syntaxErrors: { message: string; position: SourcePosition }[]

  constructor(readonly text: string) {
    this.tree = parseTree(text, [], { allowTrailingComma: false, disallowComments: true })
    // Only the first: the parser's later errors are consequences of it.
    const first = firstSyntaxError(text)
    this.syntaxErrors = first
      ? [{ message: `invalid JSON: ${first.message}`, position: offsetToPosition(text, first.offset) }]
      : []
  }

  /**
   * Position of the value at `pointer` (of its key, when it is a property). A pointer that is not
   * there (a missing required property) points where it would go: the closing brace of the nearest
   * existing object above it; inside an array, at the nearest existing ancestor.
   */
  positionOf(pointer: string): SourcePosition {
    if (!this.tree) return { line: 1, column: 1 }
    const path = pointerToPath(pointer)
    for (let n = path.length; n >= 0; n--) {
      const node = findNodeAtLocation(this.tree, path.slice(0, n))
      if (!node) continue
      if (n < path.length && node.type === 'object')
        return offsetToPosition(this.text, node.offset + node.length - 1)
      // Point at the key of a property ("name": …) rather than at its value.
      const at = node.parent?.type === 'property' ? node.parent.offset : node.offset
      return offsetToPosition(this.text, at)
    }
    return { line: 1, column: 1 }
  }
}
