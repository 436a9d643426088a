import type { CrossCheckInput } from './build-context'

/**
 * Text a visitor must never see: what `npm run new` writes for the author to replace ("TODO: …"), and
 * the usual filler. Matched against every text of every definition.
 */
export const PLACEHOLDER_TEXT = /lorem|ipsum|\bTODO\b|\bTBD\b|\bxxx\b/i

/** Every text still holding placeholder copy is an error at its own line and pointer. */
export function checkPlaceholders({ byKind, sink }: CrossCheckInput): void {
  for (const docs of Object.values(byKind))
    for (const doc of docs.values()) {
      const visit = (value: unknown, pointer: string): void => {
        if (typeof value === 'string') {
          if (PLACEHOLDER_TEXT.test(value))
            sink.add(doc, pointer, `placeholder text ${quoteStart(value)}: write the real copy here`)
        } else if (Array.isArray(value)) {
          for (const [i, v] of value.entries()) visit(v, `${pointer}/${i}`)
        } else if (value && typeof value === 'object')
          for (const [k, v] of Object.entries(value)) {
            if (k !== '$schema') visit(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)
          }
      }
      visit(doc.data, '')
    }
}

const quoteStart = (s: string) => JSON.stringify(s.length > 48 ? `${s.slice(0, 48)}…` : s)
