/**
 * Scaffolds valid definition files for marketers:
 *   npm run new -- page <slug> [--brands m10,bh] [--title "Page title"]
 *   npm run new -- funnel <id> [--vertical medicare|auto] [--brands m10,bh]
 * A page is a landing page at /<slug>; a funnel is a funnel definition plus its page at /<id>/{step?},
 * finishing on /thank-you. Texts starting with "TODO" are yours to write (validation refuses
 * them until you do). The new files are validated with the rest of the catalogue before the command ends.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import { formatDefinitionError } from '../engine/snapshot/build-snapshot'
import type { DefinitionError } from '../engine/snapshot/types'
import { addRouteMatrixRow, ROUTE_MATRIX_FILE } from '../server/content/route-matrix'
import { SnapshotStore } from '../server/content/snapshot-store'

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const MEDICARE_STEPS = ['zip', 'medicare', 'medicaid', 'name', 'contact']
const AUTO_STEPS = [
  'auto-zip',
  'vehicles',
  'make',
  'insured',
  'company',
  'homeowner',
  'credit',
  'name',
  'address',
  'contact',
]

export interface ScaffoldOptions {
  brands?: string[]
  title?: string
  vertical?: 'medicare' | 'auto'
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

function checkSlug(kind: string, slug: string | undefined): string {
  if (!slug || !SLUG.test(slug))
    throw new Error(
      `${kind} name "${slug ?? ''}" must be lower-case words joined by dashes, e.g. spring-dental-offer`,
    )
  return slug
}

function writeNew(file: string, text: string): void {
  if (existsSync(file)) throw new Error(`${file} already exists; pick another name or edit that file`)
  writeFileSync(file, text)
}

/** The errors a fresh scaffold is expected to have: its "TODO" texts. */
export const isPlaceholderError = (e: DefinitionError) => e.message.startsWith('placeholder text ')

/**
 * Adds the route → brand table row (docs/decisions/0100) of each page written, when the definitions
 * folder sits in a repository that has the table; returns the routes added.
 */
export function addMatrixRows(definitionsDir: string, files: string[]): string[] {
  const added: string[] = []
  for (const file of files.filter((f) => f.includes(`${sep}pages${sep}`))) {
    const page = JSON.parse(readFileSync(file, 'utf8')) as {
      path: string
      template: string
      brands: string[]
    }
    if (
      addRouteMatrixRow(resolve(definitionsDir, '..'), {
        route: page.path,
        kind: page.template,
        brands: page.brands,
      })
    )
      added.push(page.path)
  }
  return added
}

/** Writes definitions/pages/<slug>.json; returns the files written. */
export function scaffoldPage(definitionsDir: string, slug: string, opts: ScaffoldOptions = {}): string[] {
  checkSlug('page', slug)
  const file = join(definitionsDir, 'pages', `${slug}.json`)
  const title = opts.title ?? 'TODO: page title (shown in the browser tab and search results)'
  writeNew(
    file,
    json({
      $schema: '../../schemas/page.schema.json',
      path: `/${slug}`,
      brands: opts.brands ?? ['m10'],
      template: 'landing',
      title,
      description: 'TODO: one or two sentences for search results and link previews.',
      product: 'TODO: product name, e.g. Dental Coverage',
      headline: 'TODO: the promise of this page, in under 10 words',
      subheadline: 'TODO: one or two sentences that explain the headline honestly.',
      image: {
        src: '/images/hidden-benefits.svg',
        alt: 'TODO: describe the image for people who cannot see it',
        width: 640,
        height: 480,
      },
      benefits: ['TODO: first benefit', 'TODO: second benefit'],
      sections: [{ heading: 'TODO: section heading', body: ['TODO: a paragraph.'] }],
      faq: [{ question: 'TODO: a question visitors ask', answer: 'TODO: its answer.' }],
    }),
  )
  return [file]
}

/** Writes definitions/funnels/<id>.json and its page definitions/pages/<id>.json. */
export function scaffoldFunnel(definitionsDir: string, id: string, opts: ScaffoldOptions = {}): string[] {
  checkSlug('funnel', id)
  const vertical = opts.vertical ?? 'medicare'
  const funnelFile = join(definitionsDir, 'funnels', `${id}.json`)
  const pageFile = join(definitionsDir, 'pages', `${id}.json`)
  if (existsSync(pageFile)) throw new Error(`${pageFile} already exists; pick another name or edit that file`)
  writeNew(
    funnelFile,
    json({
      $schema: '../../schemas/funnel.schema.json',
      id,
      formVersion: `${id}-1`,
      description: 'TODO: what this funnel is for.',
      steps: (vertical === 'auto' ? AUTO_STEPS : MEDICARE_STEPS).map((step) => ({ step })),
    }),
  )
  writeNew(
    pageFile,
    json({
      $schema: '../../schemas/page.schema.json',
      path: `/${id}/{step?}`,
      brands: opts.brands ?? [vertical === 'auto' ? 'tqg' : 'm10'],
      template: 'funnel',
      form: id,
      destination: '/thank-you',
      title: opts.title ?? 'TODO: page title',
      description: 'TODO: one or two sentences for search results.',
      product: 'TODO: product name',
      headline: 'TODO: headline above the form',
      subheadline: 'TODO: why answering these questions helps the visitor.',
      image: {
        src: vertical === 'auto' ? '/images/auto-compare.svg' : '/images/hidden-benefits.svg',
        alt: 'TODO: describe the image',
        width: 640,
        height: 480,
      },
      benefits: ['TODO: first benefit', 'TODO: second benefit'],
    }),
  )
  return [funnelFile, pageFile]
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}

function main(argv: string[]): number {
  const [kind, name, ...rest] = argv
  const root = resolve(import.meta.dirname, '..')
  const dir = resolve(root, process.env.DEFINITIONS_DIR ?? 'definitions')
  const brands = option(rest, 'brands')
    ?.split(',')
    .map((b) => b.trim())
    .filter(Boolean)
  const vertical = option(rest, 'vertical')
  if (vertical && vertical !== 'medicare' && vertical !== 'auto') {
    console.error('--vertical must be medicare or auto')
    return 2
  }
  const opts: ScaffoldOptions = {
    brands,
    title: option(rest, 'title'),
    vertical: vertical as ScaffoldOptions['vertical'],
  }
  let written: string[]
  try {
    if (kind === 'page') written = scaffoldPage(dir, name, opts)
    else if (kind === 'funnel') written = scaffoldFunnel(dir, name, opts)
    else {
      console.error(
        'usage: npm run new -- page <slug> [--brands m10,bh]\n       npm run new -- funnel <id> [--vertical medicare|auto] [--brands m10,bh]',
      )
      return 2
    }
  } catch (e) {
    console.error((e as Error).message)
    return 1
  }
  for (const f of written) console.log(`created ${relative(process.cwd(), f)}`)
  for (const route of addMatrixRows(dir, written)) console.log(`added ${route} to ${ROUTE_MATRIX_FILE}`)
  const result = SnapshotStore.build(dir, resolve(dir, '..'), root)
  const errors = result.ok ? [] : result.errors
  const todos = errors.filter(isPlaceholderError)
  const others = errors.filter((e) => !isPlaceholderError(e))
  if (others.length) {
    for (const e of others) console.log(formatDefinitionError(e))
    console.log('\nThe new files are written but the catalogue does not validate yet: fix the lines above.')
    return 1
  }
  console.log(`\nWritten. Now write the copy: each of these ${todos.length} texts still says "TODO"`)
  console.log('(npm run validate and npm run dev report them until they are replaced):\n')
  for (const e of todos) console.log(`  ${e.file}:${e.line}:${e.column}  ${e.pointer}`)
  console.log('\nPick an image under ui/public/images/ as well, then run npm run validate.')
  return 0
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)))
