/**
 * Model-based tests generated for every funnel in definitions/funnels: add a funnel file and its
 * graph is derived and replayed here with no code to write.
 */

import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { formVersionBucketKey, SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import { FORM_STEP_SUBMITTED, type FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { stepUrl } from '../../engine/funnel/funnel-location'
import { funnelMachineWith } from '../../engine/funnel/funnel-machine'
import { invalidStepValues, validStepValues } from '../../engine/funnel/sample-values'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { FakeBrowser } from './fake-browser'
import { funnelCatalogue, pageInfo } from './funnel-catalogue'
import { type FunnelModelPath, funnelModelPaths, KIND_TITLES, MODEL_BASE, MODEL_QUERY } from './funnel-paths'
import { replayPath } from './replay-path'

const BASE = MODEL_BASE
const QUERY = MODEL_QUERY

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

/** The same funnel with its first step's on-submit returning false (the spec's "stay"). */
function withStayOnFirst(funnel: ResolvedFunnel): ResolvedFunnel {
  return {
    ...funnel,
    steps: funnel.steps.map((s, i) => (i === 0 ? { ...s, onSubmit: { type: 'stay' } } : s)),
  }
}

const catalogue = funnelCatalogue()

it('finds funnel definitions to test', () => {
  expect(catalogue.length).toBeGreaterThan(0)
})

for (const { funnel, pages } of catalogue) {
  const page = pageInfo(pages[0], funnel)
  const first = funnel.steps[0].name

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

    it('starting on a known step keeps the URL and its query, and views that step', async () => {
      const last = funnel.steps.at(-1)!.name
      const browser = new FakeBrowser(stepUrl(BASE, last, QUERY))
      const actor = createActor(funnelMachineWith(browser.deps()), {
        input: { funnel, page, stepParam: last, basePath: BASE, search: QUERY },
      }).start()
      await waitFor(actor, (s) => s.matches('showing'))
      expect(browser.replaced).toBe(0)
      expect(browser.url).toBe(stepUrl(BASE, last, QUERY))
      expect(browser.emitted[0]).toEqual({
        kind: 'pageView',
        page: { name: page.name, template: page.template, stepName: last },
      })
      expect(actor.getSnapshot().context.stepIndex).toBe(funnel.steps.length - 1)
    })

    it('on-submit returning false stores and reports the step but does not advance', async () => {
      const stay = withStayOnFirst(funnel)
      const browser = new FakeBrowser(stepUrl(BASE, first, QUERY))
      const actor = createActor(funnelMachineWith(browser.deps()), {
        input: { funnel: stay, page, stepParam: first, basePath: BASE, search: QUERY },
      }).start()
      await waitFor(actor, (s) => s.matches('showing'))
      const values = validStepValues(stay.steps[0].fields)
      actor.send({ type: 'SUBMIT', values })
      await waitFor(actor, (s) => s.matches('showing'))
      expect(actor.getSnapshot().context.stepIndex).toBe(0)
      expect(browser.url).toBe(stepUrl(BASE, first, QUERY))
      expect(browser.pushed).toBe(0)
      expect(
        browser.emitted.filter((e) => e.kind === 'track' && e.event === FORM_STEP_SUBMITTED),
      ).toHaveLength(1)
      expect(browser.store.get(formVersionBucketKey(funnel.formVersion))).toMatchObject(values)
      expect(browser.store.get(SHARED_BUCKET_KEY)).toMatchObject(values)
    })

    it('an invalid submit on every step shows human messages and does not advance', async () => {
      for (const [i, step] of funnel.steps.entries()) {
        const invalid = invalidStepValues(step.fields)
        if (!invalid) continue
        const browser = new FakeBrowser(stepUrl(BASE, step.name))
        const actor = createActor(funnelMachineWith(browser.deps()), {
          input: { funnel, page, stepParam: step.name, basePath: BASE, search: '' },
        }).start()
        await waitFor(actor, (s) => s.matches('showing'))
        actor.send({ type: 'SUBMIT', values: invalid })
        const ctx = actor.getSnapshot().context
        expect(ctx.stepIndex).toBe(i)
        const messages = Object.values(ctx.errors).filter(Boolean)
        expect(messages.length).toBeGreaterThan(0)
        for (const m of messages) expect(m).not.toMatch(/must match|pattern|undefined|NaN/)
        actor.stop()
      }
    })
  })
}
