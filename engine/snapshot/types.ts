import type { Brand } from '../../schemas/generated/brand'
import type { Funnel } from '../../schemas/generated/funnel'
import type { Page } from '../../schemas/generated/page'
import type { SiteConfig } from '../../schemas/generated/site'
import type { Step } from '../../schemas/generated/step'
import type { UiText } from '../../schemas/generated/ui-text'
import type { DataOf, DocumentKind } from '../definitions/kinds'
import type { RoutePattern } from '../routing/route-pattern'

/** A page with its defaults applied and its identity resolved. */
export interface PageEntry extends Page {
  key: string
  path: string
  benefits: string[]
  language: 'english' | 'es'
  indexable: boolean
  /** Definition file, relative to the repository root. */
  file: string
}

/** A funnel step after applying the funnel's overrides to the step document. */
export interface ResolvedStep extends Omit<Step, '$schema'> {
  /** The step document id it came from. */
  stepId: string
}

export interface ResolvedFunnel {
  id: string
  formVersion: string
  description?: string
  /** The language of its steps; its pages are in the same one. */
  language: 'english' | 'es'
  steps: ResolvedStep[]
  /** Buttons, progress and validation messages in the funnel's language (definitions/ui-text/). */
  text: Pick<UiText, 'funnel' | 'messages'>
}

export interface RouteEntry {
  pattern: RoutePattern
  pageKey: string
}

/** The kinds kept as written (phone rules, experiments, articles, …): by kind, then id. */
export type SnapshotDocuments = { readonly [K in DocumentKind]: ReadonlyMap<string, DataOf<K>> }

/** An immutable, fully validated view of every definition. */
export interface Snapshot {
  /** Content hash of every definition file. */
  readonly id: string
  readonly site: SiteConfig
  readonly brands: ReadonlyMap<string, Brand>
  readonly pages: ReadonlyMap<string, PageEntry>
  readonly funnels: ReadonlyMap<string, ResolvedFunnel>
  readonly steps: ReadonlyMap<string, Step>
  /** Other kinds (phone rules, experiments, articles, …) by kind, then id. */
  readonly documents: SnapshotDocuments
  /** Per brand id: routes, most specific first. */
  readonly routes: ReadonlyMap<string, readonly RouteEntry[]>
}

export interface DefinitionFile {
  /** Path relative to the repository root, with forward slashes: definitions/pages/grocery.json */
  path: string
  text: string
}

export interface DefinitionError {
  file: string
  line: number
  column: number
  pointer: string
  message: string
}

export type SnapshotResult = { ok: true; snapshot: Snapshot } | { ok: false; errors: DefinitionError[] }

export type { Brand, Funnel, Page, SiteConfig, Step }
