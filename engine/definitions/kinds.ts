import type { Article } from '../../schemas/generated/article'
import type { Author } from '../../schemas/generated/author'
import type { Brand } from '../../schemas/generated/brand'
import type { ConsentText } from '../../schemas/generated/consent'
import type { Experiment } from '../../schemas/generated/experiment'
import type { Funnel } from '../../schemas/generated/funnel'
import type { UploadedImage } from '../../schemas/generated/image'
import type { Page } from '../../schemas/generated/page'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import type { SiteConfig } from '../../schemas/generated/site'
import type { Step } from '../../schemas/generated/step'
import type { UiText } from '../../schemas/generated/ui-text'

/**
 * The kinds of definition documents: where their files live, which schema checks them and the type
 * of their data. Add a kind with one line here (plus its schema in schemas/ and its checks in
 * engine/snapshot/cross-checks.ts); the snapshot then loads it into `snapshot.documents.<kind>`.
 */
export interface DefinitionKind<T = unknown> {
  /** Folder under definitions/ (or '' for a single root file). */
  dir: string
  /** Schema file name in schemas/. */
  schema: string
  /** Single file at the definitions root instead of a folder of documents. */
  file?: string
  /** Field holding the document id that must equal the file name; undefined when the id is the file name. */
  idField?: string
  /** Type marker only (never set): the data type of a valid document. */
  readonly data?: T
}

const kind = <T>(k: Omit<DefinitionKind<T>, 'data'>): DefinitionKind<T> => k

export const DEFINITION_KINDS = {
  site: kind<SiteConfig>({ dir: '', file: 'site.json', schema: 'site.schema.json' }),
  brand: kind<Brand>({ dir: 'brands', schema: 'brand.schema.json', idField: 'id' }),
  page: kind<Page>({ dir: 'pages', schema: 'page.schema.json' }),
  funnel: kind<Funnel>({ dir: 'funnels', schema: 'funnel.schema.json', idField: 'id' }),
  step: kind<Step>({ dir: 'steps', schema: 'step.schema.json', idField: 'id' }),
  experiment: kind<Experiment>({ dir: 'experiments', schema: 'experiment.schema.json', idField: 'id' }),
  article: kind<Article>({ dir: 'articles', schema: 'article.schema.json', idField: 'id' }),
  author: kind<Author>({ dir: 'authors', schema: 'author.schema.json', idField: 'id' }),
  phoneRule: kind<PhoneRule>({ dir: 'phone-rules', schema: 'phone-rule.schema.json', idField: 'id' }),
  consent: kind<ConsentText>({ dir: 'consent', schema: 'consent.schema.json', idField: 'id' }),
  uiText: kind<UiText>({ dir: 'ui-text', schema: 'ui-text.schema.json', idField: 'language' }),
  image: kind<UploadedImage>({ dir: 'images', schema: 'image.schema.json', idField: 'id' }),
} as const

/** Name of a definition kind, used in messages and in the snapshot. */
export type KindName = keyof typeof DEFINITION_KINDS

/** The data type of a valid document of a kind. */
export type DataOf<K extends KindName> =
  (typeof DEFINITION_KINDS)[K] extends DefinitionKind<infer T> ? T : never

export const KIND_NAMES = Object.keys(DEFINITION_KINDS) as KindName[]

/** Kinds the snapshot resolves into fields of their own (`snapshot.pages`, …). */
const RESOLVED_KINDS = ['site', 'brand', 'page', 'funnel', 'step'] as const

/** Every other kind lands as-is in `snapshot.documents.<kind>`. */
export type DocumentKind = Exclude<KindName, (typeof RESOLVED_KINDS)[number]>
export const DOCUMENT_KINDS = KIND_NAMES.filter(
  (k) => !(RESOLVED_KINDS as readonly string[]).includes(k),
) as DocumentKind[]

/** Finds the kind of a definition file from its path relative to the definitions root. */
export function kindOfPath(relativePath: string): (DefinitionKind & { kind: KindName }) | undefined {
  const parts = relativePath.split('/')
  const name =
    parts.length === 1
      ? KIND_NAMES.find((k) => DEFINITION_KINDS[k].file === parts[0])
      : parts.length === 2 && parts[1].endsWith('.json')
        ? KIND_NAMES.find((k) => DEFINITION_KINDS[k].dir === parts[0] && !DEFINITION_KINDS[k].file)
        : undefined
  return name && { ...DEFINITION_KINDS[name], kind: name }
}

/** Where the files of each kind live, for messages: "site.json, brands/*.json, …". */
export function kindLocations(): string {
  return KIND_NAMES.map((k) => DEFINITION_KINDS[k].file ?? `${DEFINITION_KINDS[k].dir}/*.json`).join(', ')
}
