/**
 * Funnel machine: a visitor's full walk through each funnel (real actor, in-memory browser), and the
 * cost of deriving its shortest-path graph for the model tests.
 */
import { createActor, waitFor } from 'xstate'
import { shortestPaths } from '../../engine/funnel/funnel-graph'
import { funnelMachineWith } from '../../engine/funnel/funnel-machine'
import { validStepValues } from '../../engine/funnel/sample-values'
import { FakeBrowser } from '../../tests/model/fake-browser'
import { funnelCatalogue, pageInfo } from '../../tests/model/funnel-catalogue'

const WALKS = 200

export default async function run(): Promise<void> {
  const rows: Record<string, string | number>[] = []
  for (const { funnel, pages } of funnelCatalogue()) {
    const page = pageInfo(pages[0], funnel)
    const input = { stepParam: undefined, basePath: '/f', search: '?utm_source=x' }
    let t = performance.now()
    const paths = shortestPaths(funnel, page, input).length
    const graphMs = performance.now() - t
    t = performance.now()
    for (let i = 0; i < WALKS; i++) {
      const browser = new FakeBrowser('/f')
      const actor = createActor(funnelMachineWith(browser.deps()), {
        input: { ...input, funnel, page },
      }).start()
      while (actor.getSnapshot().status === 'active') {
        await waitFor(actor, (s) => s.status !== 'active' || s.matches('showing'))
        if (actor.getSnapshot().status !== 'active') break
        const step = funnel.steps[actor.getSnapshot().context.stepIndex]
        actor.send({ type: 'SUBMIT', values: validStepValues(step.fields) })
      }
    }
    const walkMs = (performance.now() - t) / WALKS
    rows.push({
      funnel: funnel.id,
      steps: funnel.steps.length,
      'graph paths': paths,
      'graph ms': Math.round(graphMs),
      'walk ms': walkMs.toFixed(2),
      'steps/s': Math.round((funnel.steps.length * 1000) / walkMs),
    })
  }
  console.table(rows)
}
