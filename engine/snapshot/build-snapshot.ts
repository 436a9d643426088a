import { parse as parseLenient } from 'jsonc-parser'
import { DEFAULT_PAGE_LANGUAGE } from '../constants'
import { DOCUMENT_KINDS, KIND_NAMES, kindLocations, kindOfPath } from '../definitions/kinds'
import { LocatedJson } from '../definitions/locate'
import { describeErrors, validatorFor } from '../definitions/validators'
import {
  compareSpecificity,
  compileRoutePattern,
  type RoutePattern,
  RoutePatternError,
} from '../routing/route-pattern'
import { hashString } from '../util/hash'
import { type BuildOptions, type DocumentsByKind, ErrorSink, type LoadedDocument } from './build-context'
import { runCrossChecks } from './cross-checks'
import type {
  DefinitionError,
  DefinitionFile,
  PageEntry,
  ResolvedFunnel,
  RouteEntry,
  Snapshot,
  SnapshotDocuments,
  SnapshotResult,
} from './types'

export type { BuildOptions, LoadedDocument }
export { ErrorSink }

const baseNameOf = (rel: string) =>
  rel
    .split('/')
    .pop()!
    .replace(/\.json$/, '')

/** The id a file that does not parse claims, read leniently (its other errors are reported already). */
function idInBrokenJson(text: string, idField: string): string | undefined {
  const data = parseLenient(text) as Record<string, unknown> | undefined
  const id = data?.[idField]
  return typeof id === 'string' ? id : undefined
}

/**
 * Builds an immutable snapshot from definition file contents. Any error refuses the snapshot whole;
 * every error is reported at once with file, line, column and JSON pointer.
 */
export function buildSnapshot(files: readonly DefinitionFile[], options: BuildOptions = {}): SnapshotResult {
  const root = (options.root ?? 'definitions').replace(/\/$/, '')
  const sink = new ErrorSink()
  const byKind = Object.fromEntries(KIND_NAMES.map((k) => [k, new Map()])) as DocumentsByKind

  const sorted = [...files].sort((a, b) => a.path.localeCompare(b.path))
  for (const f of sorted) {
    if (!f.path.startsWith(`${root}/`) || !f.path.endsWith('.json')) continue
    const rel = f.path.slice(root.length + 1)
    const kind = kindOfPath(rel)
    const source = new LocatedJson(f.text)
    if (!kind) {
      sink.errors.push({
        file: f.path,
        line: 1,
        column: 1,
        pointer: '',
        message: `not a known definition location (expected one of: ${kindLocations()})`,
      })
      continue
    }
    if (source.syntaxErrors.length || !source.tree) {
      for (const e of source.syntaxErrors)
        sink.errors.push({ file: f.path, ...e.position, pointer: '', message: e.message })
      // The file exists: references to it are not reported as missing as well.
      sink.markInvalid(kind.kind, (kind.idField && idInBrokenJson(f.text, kind.idField)) || baseNameOf(rel))
      continue
    }
    let data: unknown
    try {
      data = JSON.parse(f.text)
    } catch (e) {
      sink.errors.push({
        file: f.path,
        line: 1,
        column: 1,
        pointer: '',
        message: `invalid JSON: ${(e as Error).message}`,
      })
      continue
    }
    const doc: LoadedDocument = { kind: kind.kind, id: '', file: f.path, data, source }
    const validate = validatorFor(kind.schema)
    const baseName = baseNameOf(rel)
    if (!validate(data)) {
      for (const p of describeErrors(validate.errors ?? [])) sink.add(doc, p.pointer, p.message, p.property)
      const claimedId = kind.idField ? (data as Record<string, unknown> | null)?.[kind.idField] : baseName
      if (typeof claimedId === 'string') sink.markInvalid(kind.kind, claimedId)
      continue
    }
    const id = kind.file
      ? kind.kind
      : kind.idField
        ? String((data as Record<string, unknown>)[kind.idField])
        : baseName
    if (kind.idField && id !== baseName) {
      sink.add(doc, `/${kind.idField}`, `${kind.idField} "${id}" must equal the file name "${baseName}"`)
      continue
    }
    doc.id = id
    ;(byKind[kind.kind] as Map<string, LoadedDocument>).set(id, doc)
  }

  const siteDoc = byKind.site.get('site')
  if (!siteDoc && !sink.errors.some((e) => e.file === `${root}/site.json`)) {
    sink.errors.push({
      file: `${root}/site.json`,
      line: 1,
      column: 1,
      pointer: '',
      message: 'missing site configuration',
    })
  }

  const { brand: brands, page: pages, funnel: funnelDocs, step: stepDocs, uiText } = byKind

  // Pages: defaults, identity, patterns.
  const pageEntries = new Map<string, PageEntry>()
  const pagePatterns = new Map<string, { pattern: RoutePattern; pointer: string }[]>()
  const keys = new Map<string, LoadedDocument>()
  for (const [fileId, doc] of pages) {
    const p = doc.data
    const key = p.key ?? fileId
    const other = keys.get(key)
    if (other) {
      sink.add(doc, p.key ? '/key' : '', `page key "${key}" is already used by ${other.file}`)
      continue
    }
    keys.set(key, doc)
    const path = p.path ?? `/${fileId}`
    const patterns: { pattern: RoutePattern; pointer: string }[] = []
    const sources = [
      { src: path, pointer: p.path ? '/path' : '' },
      ...(p.aliases ?? []).map((src, i) => ({ src, pointer: `/aliases/${i}` })),
    ]
    for (const s of sources) {
      try {
        patterns.push({ pattern: compileRoutePattern(s.src), pointer: s.pointer })
      } catch (e) {
        if (e instanceof RoutePatternError) sink.add(doc, s.pointer, e.message)
        else throw e
      }
    }
    pagePatterns.set(key, patterns)
    pageEntries.set(key, {
      ...p,
      key,
      path,
      benefits: p.benefits ?? [],
      language: p.language ?? (DEFAULT_PAGE_LANGUAGE as 'english'),
      indexable: p.indexable ?? true,
      brands: p.brands ?? [],
      file: doc.file,
    })
  }

  // Funnels: resolve steps with overrides.
  const funnels = new Map<string, ResolvedFunnel>()
  for (const [id, doc] of funnelDocs) {
    const steps = doc.data.steps.map((ref) => {
      const step = stepDocs.get(ref.step)?.data
      if (!step) return undefined
      const { $schema: _s, ...rest } = step
      return { ...rest, ...(ref.overrides ?? {}), stepId: step.id }
    })
    const language = doc.data.language ?? (DEFAULT_PAGE_LANGUAGE as 'english')
    const text = uiText.get(language)?.data
    if (!text) {
      if (!sink.isInvalid('uiText', language))
        sink.add(doc, '', `no words for language "${language}": add definitions/ui-text/${language}.json`)
      sink.markInvalid('funnel', id)
      continue
    }
    funnels.set(id, {
      id,
      formVersion: doc.data.formVersion,
      description: doc.data.description,
      language,
      steps: steps.filter((s): s is NonNullable<typeof s> => !!s),
      text: { funnel: text.funnel, messages: text.messages },
    })
  }
  // A page speaks one language: its funnel's questions, buttons and messages are in it too.
  for (const [fileId, doc] of pages) {
    const entry = [...pageEntries.values()].find((e) => e.file === doc.file)
    const funnel = entry?.form ? funnels.get(entry.form) : undefined
    if (entry && funnel && funnel.language !== entry.language)
      sink.add(
        doc,
        '/form',
        `funnel "${funnel.id}" is in ${funnel.language} but page "${fileId}" is in ${entry.language}: use a funnel in ${entry.language}`,
      )
  }

  // Routes per brand.
  const routes = new Map<string, RouteEntry[]>()
  for (const id of brands.keys()) routes.set(id, [])
  const claimed = new Map<string, { key: string; source: string; doc: LoadedDocument; pointer: string }>()
  for (const [key, entry] of pageEntries) {
    const doc = pages.get(
      entry.file
        .split('/')
        .pop()!
        .replace(/\.json$/, ''),
    )!
    entry.brands.forEach((brandId, i) => {
      if (!brands.has(brandId)) {
        if (sink.isInvalid('brand', brandId)) return
        sink.add(
          doc,
          `/brands/${i}`,
          `unknown brand "${brandId}" (known: ${[...brands.keys()].sort().join(', ')})`,
        )
        return
      }
      for (const { pattern, pointer } of pagePatterns.get(key) ?? []) {
        const claimKey = `${brandId} ${pattern.shape}`
        const prev = claimed.get(claimKey)
        // A default path has no line of its own: point at the brand that collides instead.
        const at = pointer || `/brands/${i}`
        if (prev) {
          sink.add(
            doc,
            at,
            `path "${pattern.source}" on brand "${brandId}" is already claimed by page "${prev.key}" ("${prev.source}")`,
          )
          sink.add(
            prev.doc,
            prev.pointer,
            `path "${prev.source}" on brand "${brandId}" is also claimed by page "${key}" ("${pattern.source}")`,
          )
          continue
        }
        claimed.set(claimKey, { key, source: pattern.source, doc, pointer: at })
        routes.get(brandId)!.push({ pattern, pageKey: key })
      }
    })
  }
  for (const list of routes.values()) list.sort((a, b) => compareSpecificity(a.pattern, b.pattern))

  runCrossChecks({ byKind, pageEntries, funnels, sink, options })

  if (sink.errors.length) {
    sink.errors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column)
    return { ok: false, errors: sink.errors }
  }

  const dataOf = <T>(docs: Map<string, LoadedDocument<T>>) =>
    new Map([...docs].map(([id, d]) => [id, d.data]))
  const documents = Object.fromEntries(
    DOCUMENT_KINDS.map((k) => [k, dataOf<unknown>(byKind[k])]),
  ) as unknown as SnapshotDocuments
  const id = hashString(sorted.map((f) => `${f.path}\n${f.text}`).join('\n\u0000'))
  const snapshot: Snapshot = deepFreeze({
    id,
    site: siteDoc!.data,
    brands: dataOf(brands),
    pages: pageEntries,
    funnels,
    steps: dataOf(stepDocs),
    documents,
    routes,
  })
  return { ok: true, snapshot }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    if (value instanceof Map) for (const v of value.values()) deepFreeze(v)
    else for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

/** One line per error: `file:line:col  /json/pointer  message`. */
export function formatDefinitionError(e: DefinitionError): string {
  return `${e.file}:${e.line}:${e.column}  ${e.pointer || '/'}  ${e.message}`
}
