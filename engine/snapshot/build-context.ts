/**
 * What the snapshot builder hands to each cross-check: the schema-valid documents by kind, the
 * resolved pages and funnels, and the sink errors go to. Checks import this file, never the builder,
 * so the import graph stays a tree (builder → checks list → checks → this file).
 */
import type { Action, SingleAction } from '../../schemas/generated/action'
import type { DataOf, KindName } from '../definitions/kinds'
import { childPointer, type LocatedJson } from '../definitions/locate'
import type { DefinitionError, PageEntry, ResolvedFunnel } from './types'

export interface BuildOptions {
  /** Folder of the definitions, relative to the repository root. */
  root?: string
  /** Tells whether a public asset (an image src starting with /) exists; skipped when absent. */
  assetExists?: (src: string) => boolean
}

/** A parsed, schema-valid document with the means to point at its source. */
export interface LoadedDocument<T = unknown> {
  kind: KindName
  id: string
  file: string
  data: T
  source: LocatedJson
}

/** Schema-valid documents of every kind, by id. */
export type DocumentsByKind = { [K in KindName]: Map<string, LoadedDocument<DataOf<K>>> }

export class ErrorSink {
  readonly errors: DefinitionError[] = []
  /** Ids of documents that exist but failed validation, per kind: references to them are not reported again. */
  readonly invalidIds = new Map<string, Set<string>>()
  isInvalid(kind: KindName, id: string): boolean {
    return this.invalidIds.get(kind)?.has(id) ?? false
  }
  markInvalid(kind: KindName, id: string): void {
    if (!this.invalidIds.has(kind)) this.invalidIds.set(kind, new Set())
    this.invalidIds.get(kind)!.add(id)
  }
  add(
    doc: Pick<LoadedDocument, 'file' | 'source'>,
    pointer: string,
    message: string,
    property?: string,
  ): void {
    const at = property === undefined ? pointer : childPointer(pointer, property)
    const pos = doc.source.positionOf(at)
    this.errors.push({ file: doc.file, line: pos.line, column: pos.column, pointer: at, message })
  }
}

export interface CrossCheckInput {
  byKind: DocumentsByKind
  pageEntries: Map<string, PageEntry>
  funnels: Map<string, ResolvedFunnel>
  sink: ErrorSink
  options: BuildOptions
}

export type CrossCheck = (input: CrossCheckInput) => void

/** An image src starting with / must exist under ui/public (checked only when the builder can look). */
export function checkImage(
  input: CrossCheckInput,
  doc: LoadedDocument,
  pointer: string,
  src: string | undefined,
) {
  if (src?.startsWith('/') && input.options.assetExists && !input.options.assetExists(src))
    input.sink.add(doc, pointer, `image file "${src}" does not exist under ui/public`)
}

export function actionsOf(action: Action | undefined): SingleAction[] {
  if (!action) return []
  return Array.isArray(action) ? action : [action]
}
