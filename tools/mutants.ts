/**
 * `npm run mutants [machine] [--json]` (issue 38): every single-fault copy of each modelled machine —
 * a transition sent to another state, a guard dropped, an action dropped, a delay swapped — run
 * against the machine's generated tests (tests/model/mutant-run.ts); the funnel machine's copies once
 * per catalogue funnel shape (`funnel:<id>`, tests/model/funnel-mutants.ts; `funnel` runs every shape). Prints killed / survived per
 * machine and each survivor as a line (`cc-draft: saved —on.EDIT→ saved (was unsaved)`); an
 * equivalent one with the model's reason. Exits 1 when a survivor is not explained, or a copy the model
 * lists as equivalent was killed (or no longer exists).
 */
import { pathToFileURL } from 'node:url'
import { funnelShapeModels, funnelShapeNamed, runFunnelMutants } from '../tests/model/funnel-mutants'
import { MACHINE_MODELS } from '../tests/model/machines'
import { type MachineMutants, runMutants, unexplained } from '../tests/model/mutant-run'

const USAGE = 'usage: npm run mutants [-- <machine name> | funnel | funnel:<funnel id>] [--json]'

interface Runnable {
  name: string
  run: () => Promise<MachineMutants>
}

/** Every machine, then the funnel machine per funnel shape; or the one named (`funnel` for every shape). */
function runnables(name: string | undefined): Runnable[] {
  const machines = MACHINE_MODELS.map((m) => ({ name: m.name, run: () => runMutants(m) }))
  const shapes = funnelShapeModels()
  const funnels = shapes.map((m) => ({ name: m.name, run: () => runFunnelMutants(m) }))
  if (name === undefined) return [...machines, ...funnels]
  if (name === 'funnel') return funnels
  const shape = funnelShapeNamed(shapes, name)
  if (shape) return funnels.filter((f) => f.name === shape.name)
  return machines.filter((m) => m.name === name)
}

export function mutantsReport(results: MachineMutants[], json: boolean): string {
  if (json)
    return JSON.stringify(
      results.map((r) => ({
        machine: r.machine,
        mutants: r.outcomes.length,
        killed: r.outcomes.filter((o) => o.killedBy !== null).length,
        equivalent: r.outcomes
          .filter((o) => o.equivalent)
          .map((o) => ({ label: o.label, why: o.equivalent })),
        survived: unexplained(r).map((o) => ({ kind: o.kind, label: o.label })),
        staleEquivalents: r.staleEquivalents,
      })),
      null,
      2,
    )
  const pad = (s: string | number, n: number) => String(s).padEnd(n)
  const lines = [
    `${pad('machine', 30)}${pad('mutants', 9)}${pad('killed', 8)}${pad('equivalent', 12)}survived`,
  ]
  for (const r of results) {
    const killed = r.outcomes.filter((o) => o.killedBy !== null).length
    const eq = r.outcomes.filter((o) => o.equivalent).length
    lines.push(
      `${pad(r.machine, 30)}${pad(r.outcomes.length, 9)}${pad(killed, 8)}${pad(eq, 12)}${unexplained(r).length}`,
    )
  }
  for (const r of results) {
    for (const o of unexplained(r)) lines.push(`survived  ${r.machine}: ${o.label}`)
    for (const label of r.staleEquivalents)
      lines.push(`listed as equivalent but killed or gone  ${r.machine}: ${label}`)
    for (const o of r.outcomes.filter((x) => x.equivalent))
      lines.push(`equivalent  ${r.machine}: ${o.label} — ${o.equivalent}`)
  }
  return lines.join('\n')
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json')
  const names = argv.filter((a) => !a.startsWith('--'))
  const unknownOption = argv.find((a) => a.startsWith('--') && a !== '--json')
  if (unknownOption || names.length > 1) {
    console.error(USAGE)
    return 2
  }
  const models = runnables(names[0])
  if (models.length === 0) {
    console.error(
      `no machine "${names[0]}": one of ${runnables(undefined)
        .map((m) => m.name)
        .join(', ')}, funnel (every shape) or funnel:<any catalogue funnel id>`,
    )
    return 2
  }
  const results: MachineMutants[] = []
  for (const model of models) {
    const r = await model.run()
    results.push(r)
    if (!json) process.stderr.write(`${model.name}: ${r.outcomes.length} mutants run\n`)
  }
  console.log(mutantsReport(results, json))
  return results.some((r) => unexplained(r).length > 0 || r.staleEquivalents.length > 0) ? 1 : 0
}

if (import.meta.url === pathToFileURL(process.argv[1]).href)
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
