/**
 * Model-based tests generated for every funnel in definitions/funnels: add a funnel file and its
 * graph is derived and replayed here with no code to write.
 */

import { describe, expect, it } from 'vitest'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { funnelCatalogue, pageInfo } from './funnel-catalogue'
import { FUNNEL_CHECKS } from './funnel-checks'
import { type FunnelModelPath, funnelModelPaths, KIND_TITLES } from './funnel-paths'
import { replayPath } from './replay-path'

/** Replays one listed path; a failure names it and the command that walks it in a browser. */
async function walk(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  brand: string | undefined,
  p: FunnelModelPath,
) {
  try {
    return await replayPath(funnel, page, p.input, p.path)
  } catch (e) {
    const base = brand ? ` --base http://${brand}.localhost:3000` : ''
    ;(e as Error).message +=
      `\n  path ${p.n}: ${p.line}\n  replay: npm run paths -- ${funnel.id} --replay ${p.n}${base}`
    throw e
  }
}

const catalogue = funnelCatalogue()

it('finds funnel definitions to test', () => {
  expect(catalogue.length).toBeGreaterThan(0)
})

for (const { funnel, pages } of catalogue) {
  const page = pageInfo(pages[0], funnel)

  describe(`funnel ${funnel.id} (${funnel.steps.length} steps)`, () => {
    const listed = funnelModelPaths(funnel, page)
    const brand = pages[0]?.brands[0]
    for (const kind of Object.keys(KIND_TITLES) as (keyof typeof KIND_TITLES)[]) {
      describe(KIND_TITLES[kind], () => {
        const paths = listed.filter((p) => p.kind === kind)
        if (kind === 'complete') it('has complete paths', () => expect(paths.length).toBeGreaterThan(0))
        for (const p of paths)
          it(`#${p.n} ${p.line}`, async () => {
            const browser = await walk(funnel, page, brand, p)
            if (kind === 'complete') expect(browser.left).not.toBeNull()
          })
      })
    }

    for (const check of FUNNEL_CHECKS) it(check.title, () => check.run(funnel, page))
  })
}
