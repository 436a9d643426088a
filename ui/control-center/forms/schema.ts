/** Reading a definition schema for a form: $refs to the shared schemas, a property's schema by pointer. */
import actionSchema from '../../../schemas/action.schema.json'
import commonSchema from '../../../schemas/common.schema.json'
import conditionSchema from '../../../schemas/condition.schema.json'
import fieldSchema from '../../../schemas/field.schema.json'
import { tokens } from './pointer'
import type { JsonSchema, WidgetName } from './types'

/** The schemas a definition schema refers to by file name. */
const SHARED: Record<string, JsonSchema> = {
  'common.schema.json': commonSchema as JsonSchema,
  'action.schema.json': actionSchema as JsonSchema,
  'condition.schema.json': conditionSchema as JsonSchema,
  'field.schema.json': fieldSchema as JsonSchema,
}

/** `s` with its `$ref` followed (`file.schema.json#/$defs/X`, or `#/$defs/X` inside `root`); its own keywords win. */
export function resolve(s: JsonSchema | undefined, root: JsonSchema): JsonSchema {
  if (!s?.$ref) return s ?? {}
  const [file, fragment = ''] = s.$ref.split('#')
  let target: unknown = file ? SHARED[file] : root
  for (const t of tokens(fragment)) target = (target as Record<string, unknown> | undefined)?.[t]
  const { $ref: _, ...own } = s
  return { ...resolve(target as JsonSchema | undefined, file ? (SHARED[file] ?? root) : root), ...own }
}

/** The schema of the property at `pointer`, and whether its parent requires it. */
export function propertyAt(root: JsonSchema, pointer: string): { schema: JsonSchema; required: boolean } {
  let at = resolve(root, root)
  let required = false
  for (const t of tokens(pointer)) {
    if (/^\d+$/.test(t) && at.items) {
      at = resolve(at.items, root)
      required = true
    } else {
      required = (at.required ?? []).includes(t)
      at = resolve(at.properties?.[t], root)
    }
  }
  return { schema: at, required }
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type)

/** The widget a property's type implies; null: the form cannot edit it (the Source tab can). */
export function defaultWidget(s: JsonSchema): WidgetName | null {
  if (s.enum) return 'enum'
  switch (typeOf(s)) {
    case 'string':
      return s.format === 'date' ? 'date' : (s.maxLength ?? 0) > 200 ? 'longText' : 'text'
    case 'boolean':
      return 'boolean'
    case 'integer':
    case 'number':
      return 'number'
    case 'array': {
      const items = s.items ?? {}
      return typeOf(items) === 'string' && !items.$ref ? 'lines' : null
    }
    default:
      return null
  }
}
