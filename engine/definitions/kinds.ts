/**
 * The kinds of definition documents: where their files live and which schema checks them.
 * Add a kind here (and its schema in schemas/) to make the snapshot load it.
 */
export interface DefinitionKind {
  /** Name used in messages and in the snapshot. */
  kind: string
  /** Folder under definitions/ (or '' for a single root file). */
  dir: string
  /** Schema file name in schemas/. */
  schema: string
  /** Single file at the definitions root instead of a folder of documents. */
  file?: string
  /** Field holding the document id that must equal the file name; undefined when the id is the file name. */
  idField?: string
}

export const DEFINITION_KINDS: readonly DefinitionKind[] = [
  { kind: 'site', dir: '', file: 'site.json', schema: 'site.schema.json' },
  { kind: 'brand', dir: 'brands', schema: 'brand.schema.json', idField: 'id' },
  { kind: 'page', dir: 'pages', schema: 'page.schema.json' },
  { kind: 'funnel', dir: 'funnels', schema: 'funnel.schema.json', idField: 'id' },
  { kind: 'step', dir: 'steps', schema: 'step.schema.json', idField: 'id' },
  { kind: 'experiment', dir: 'experiments', schema: 'experiment.schema.json', idField: 'id' },
  { kind: 'article', dir: 'articles', schema: 'article.schema.json', idField: 'id' },
  { kind: 'author', dir: 'authors', schema: 'author.schema.json', idField: 'id' },
  { kind: 'phoneRule', dir: 'phone-rules', schema: 'phone-rule.schema.json', idField: 'id' },
]

/** Finds the kind of a definition file from its path relative to the definitions root. */
export function kindOfPath(relativePath: string): DefinitionKind | undefined {
  const parts = relativePath.split('/')
  if (parts.length === 1) return DEFINITION_KINDS.find((k) => k.file === parts[0])
  if (parts.length === 2 && parts[1].endsWith('.json'))
    return DEFINITION_KINDS.find((k) => k.dir === parts[0] && !k.file)
  return undefined
}
