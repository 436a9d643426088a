/**
 * `npm run paths -- <funnel id | machine name> [--json] [--replay N] [--base URL]` (issue 31): the
 * paths the model tests walk, one readable line each, with state and transition coverage and, for a
 * funnel, the URLs a person visits. `--replay N` walks path N: a funnel's in Chromium against a
 * running server (`--base http://m10.localhost:3000`), a machine's in-process on a simulated clock.
 * The paths come from the same code the model tests use (tests/model/funnel-paths.ts, machine-model.ts).
 */
import { pathToFileURL } from 'node:url'
import type { GraphEvent } from '../engine/funnel/funnel-graph'
import type { PageEntry, ResolvedFunnel } from '../engine/snapshot/types'
import { funnelBase } from '../tests/e2e/funnel-driver'
import { funnelCatalogue, pageInfo } from '../tests/model/funnel-catalogue'
import {
  type FunnelModelPath,
  funnelCoverage,
  funnelModelPaths,
  funnelPathUrls,
  MODEL_BASE,
} from '../tests/model/funnel-paths'
import { type Coverage, MODEL_T0, modelPaths, replayModelPath } from '../tests/model/machine-model'
import { MACHINE_MODELS } from '../tests/model/machines'

const USAGE =
  'usage: npm run paths -- <funnel id | machine name> [--json] [--replay N] [--base http://m10.localhost:3000]'
const DEFAULT_PORT = 3000

export class UsageError extends Error {}

export interface PathsArgs {
  name: string
  json: boolean
  replay: number | null
  base: string | null
}

export function parseArgs(argv: string[]): PathsArgs {
  const args: PathsArgs = { name: '', json: false, replay: null, base: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--json') args.json = true
    else if (a === '--replay') {
      const n = Number(argv[++i])
      if (!Number.isInteger(n) || n < 1)
        throw new UsageError(`--replay takes a path number (1, 2, …), not "${argv[i] ?? ''}"`)
      args.replay = n
    } else if (a === '--base') {
      const v = argv[++i] ?? ''
      if (!/^https?:\/\/[^/]+$/.test(v.replace(/\/$/, '')))
        throw new UsageError(`--base takes an origin like http://m10.localhost:3000, not "${v}"`)
      args.base = v.replace(/\/$/, '')
    } else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}\n${USAGE}`)
    else if (args.name)
      throw new UsageError(`one funnel id or machine name, not "${args.name}" and "${a}"\n${USAGE}`)
    else args.name = a
  }
  if (!args.name) throw new UsageError(USAGE)
  return args
}

interface CoverageJson {
  covered: number
  total: number
  notCovered: string[]
}

const coverageJson = (xs: { covered: boolean; id?: string; label?: string }[]): CoverageJson => ({
  covered: xs.filter((x) => x.covered).length,
  total: xs.length,
  notCovered: xs.filter((x) => !x.covered).map((x) => x.id ?? x.label ?? ''),
})

function coverageText(label: [string, string], c: Coverage): string[] {
  const s = coverageJson(c.states)
  const t = coverageJson(c.transitions)
  return [
    `${label[0]}: ${s.covered}/${s.total} covered${s.notCovered.length ? `; not covered: ${s.notCovered.join(', ')}` : ''}`,
    `${label[1]}: ${t.covered}/${t.total} covered${t.notCovered.length ? `; not covered: ${t.notCovered.join('; ')}` : ''}`,
  ]
}

// --- machines ---------------------------------------------------------------------------------

function machineReport(name: string, json: boolean): string {
  const model = MACHINE_MODELS.find((m) => m.name === name)!
  const { paths, coverage } = modelPaths(model)
  const replay = `npm run paths -- ${name} --replay N`
  if (json)
    return JSON.stringify(
      {
        kind: 'machine',
        name,
        title: model.title,
        paths: paths.map((p) => ({
          n: p.n,
          start: p.start,
          line: p.line,
          steps: p.steps.map((s) => ({
            kind: s.kind,
            event: s.event.type,
            label: s.label,
            atMs: s.at - MODEL_T0,
          })),
          end: p.steps.at(-1)?.state.value ?? null,
        })),
        coverage: { states: coverageJson(coverage.states), transitions: coverageJson(coverage.transitions) },
        replay,
      },
      null,
      2,
    )
  return [
    `${name}: ${model.title}`,
    `${paths.length} paths (the model tests walk each on a simulated clock)`,
    ...coverageText(['states', 'transitions'], coverage),
    '',
    ...paths.map((p) => `  #${p.n} ${p.line}`),
    '',
    `replay one: ${replay}`,
  ].join('\n')
}

// --- funnels ----------------------------------------------------------------------------------

interface FunnelTarget {
  funnel: ResolvedFunnel
  page: PageEntry | undefined
  paths: FunnelModelPath[]
}

function funnelTarget(id: string): FunnelTarget | null {
  const entry = funnelCatalogue().find((c) => c.funnel.id === id)
  if (!entry) return null
  const page = entry.pages[0]
  return { funnel: entry.funnel, page, paths: funnelModelPaths(entry.funnel, pageInfo(page, entry.funnel)) }
}

/** The page's origin on its first brand (or `base`), and its path without the step. */
function funnelPlace(t: FunnelTarget, base: string | null): { origin: string; path: string } {
  const brand = t.page?.brands[0] ?? 'm10'
  const port = process.env.PORT ?? DEFAULT_PORT
  return {
    origin: base ?? `http://${brand}.localhost:${port}`,
    path: t.page ? funnelBase(t.page) : MODEL_BASE,
  }
}

function moveOf(funnel: ResolvedFunnel, p: FunnelModelPath, i: number) {
  const e = p.path.steps[i].event as GraphEvent
  const before = p.path.steps[i - 1].state as unknown as { context: { stepIndex: number } }
  return {
    event: e.type,
    step: funnel.steps[before.context.stepIndex].name,
    ...(e.type === 'SUBMIT' ? { values: e.values ?? {}, ...(e.note ? { note: e.note } : {}) } : {}),
  }
}

function funnelReport(t: FunnelTarget, json: boolean, base: string | null): string {
  const { funnel } = t
  const place = funnelPlace(t, base)
  const coverage = funnelCoverage(funnel, pageInfo(t.page, funnel), t.paths)
  const urls = (p: FunnelModelPath) =>
    funnelPathUrls(funnel, p, place.path).map((u) => (u.startsWith('/') ? `${place.origin}${u}` : u))
  const replay = `npm run paths -- ${funnel.id} --replay N --base ${place.origin}`
  if (json)
    return JSON.stringify(
      {
        kind: 'funnel',
        name: funnel.id,
        page: t.page?.key ?? null,
        pagePath: t.page?.path ?? null,
        brand: t.page?.brands[0] ?? null,
        paths: t.paths.map((p) => ({
          n: p.n,
          kind: p.kind,
          line: p.line,
          steps: p.path.steps
            .map((s, i) =>
              i === 0 || s.event.type.startsWith('xstate.done.actor.') ? null : moveOf(funnel, p, i),
            )
            .filter(Boolean),
          urls: urls(p),
        })),
        coverage: { states: coverageJson(coverage.states), transitions: coverageJson(coverage.transitions) },
        replay,
      },
      null,
      2,
    )
  return [
    `${funnel.id}: funnel of ${t.page ? `${t.page.key} (${t.page.path}) on ${t.page.brands[0]}` : 'no page yet'}`,
    `${t.paths.length} paths (the model tests walk each)`,
    ...coverageText(['steps and exits', 'moves between them'], coverage),
    '',
    ...t.paths.flatMap((p) => [`  #${p.n} ${p.line}`, `      ${urls(p).join(' → ')}`]),
    '',
    `replay one in Chromium against a running server: ${replay}`,
  ].join('\n')
}

// --- entry ------------------------------------------------------------------------------------

/** The report `npm run paths` prints for these arguments (no replay). */
export function pathsReport(args: PathsArgs): string {
  if (MACHINE_MODELS.some((m) => m.name === args.name)) return machineReport(args.name, args.json)
  const target = funnelTarget(args.name)
  if (target) return funnelReport(target, args.json, args.base)
  throw new UsageError(
    `no funnel or machine named "${args.name}"\n  machines: ${MACHINE_MODELS.map((m) => m.name).join(', ')}\n  funnels: ${funnelCatalogue()
      .map((c) => c.funnel.id)
      .join(', ')}`,
  )
}

async function replay(args: PathsArgs, print: (line: string) => void): Promise<void> {
  const n = args.replay!
  const model = MACHINE_MODELS.find((m) => m.name === args.name)
  if (model) {
    const path = modelPaths(model).paths.find((p) => p.n === n)
    if (!path) throw new UsageError(`${args.name} has no path ${n}`)
    print(`replaying ${args.name} path ${n} on a simulated clock: ${path.line}`)
    await replayModelPath(model, path, { onStep: print })
    print('ok: every step as the graph says, every promise kept')
    return
  }
  const target = funnelTarget(args.name)
  if (!target) throw new UsageError(pathsReport(args))
  const path = target.paths.find((p) => p.n === n)
  if (!path) throw new UsageError(`${args.name} has no path ${n} (it has ${target.paths.length})`)
  if (!args.base)
    throw new UsageError(
      `--replay of a funnel path needs --base, e.g. --base http://${target.page?.brands[0] ?? 'm10'}.localhost:3000`,
    )
  const place = funnelPlace(target, args.base)
  print(`replaying ${args.name} path ${n} in Chromium: ${path.line}`)
  const { replayFunnelPath } = await import('../tests/e2e/funnel-path-replay')
  await replayFunnelPath(target.funnel, path, place.origin, place.path, print)
}

export async function main(argv: string[], print = (l: string) => console.log(l)): Promise<number> {
  try {
    const args = parseArgs(argv)
    if (args.replay !== null) await replay(args, print)
    else print(pathsReport(args))
    return 0
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(e.message)
      return 2
    }
    console.error(e instanceof Error ? e.message : e)
    return 1
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // A reader that stops early (`| head`) is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0)
    throw e
  })
  // exitCode, not exit(): a long report piped to another program must be written out first.
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
