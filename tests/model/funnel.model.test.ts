/**
 * Model-based tests generated for every funnel in definitions/funnels: add a funnel file and its
 * graph is derived and replayed here with no code to write.
 */

import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { formVersionBucketKey, SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import { FORM_STEP_SUBMITTED } from '../../engine/funnel/funnel-deps'
import {
  type GraphEvent,
  type ScriptMove,
  scriptedPath,
  shortestPaths,
  simplePathsToEnd,
} from '../../engine/funnel/funnel-graph'
import { stepUrl } from '../../engine/funnel/funnel-location'
import { funnelMachineWith } from '../../engine/funnel/funnel-machine'
import { invalidStepValues, validStepValues } from '../../engine/funnel/sample-values'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { FakeBrowser } from './fake-browser'
import { funnelCatalogue, pageInfo } from './funnel-catalogue'
import { type GraphPath, replayPath } from './replay-path'

const SIMPLE_PATH_SAMPLE = 24
const BASE = '/funnel-under-test'
const QUERY = '?utm_source=x'

function describePath(path: GraphPath): string {
  const names = path.steps.slice(1).map(({ event }) => {
    const e = event as GraphEvent
    if (e.type === 'SUBMIT') return `submit${e.note ? `(${e.note})` : ''}`
    if (e.type === 'POPSTATE') return `popstate(${e.step})`
    return e.type.startsWith('xstate.done.actor.') ? '' : e.type.toLowerCase()
  })
  return names.filter(Boolean).join(' → ') || '(start)'
}

/** A bounded, deterministic set of simple paths that still covers skip, invalid submit and "no" answers. */
function sampleSimplePaths(paths: GraphPath[]): GraphPath[] {
  const picked = new Set<GraphPath>()
  const has = (p: GraphPath, f: (d: string) => boolean) => f(describePath(p))
  for (const want of [
    (d: string) => d.includes('skip'),
    (d: string) => d.includes('submit(no)'),
    (d: string) => !d.includes('skip'),
  ]) {
    const p = paths.find((x) => has(x, want))
    if (p) picked.add(p)
  }
  const stride = Math.max(1, Math.floor(paths.length / SIMPLE_PATH_SAMPLE))
  for (let i = 0; i < paths.length && picked.size < SIMPLE_PATH_SAMPLE; i += stride) picked.add(paths[i])
  return [...picked]
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
    describe('shortest paths, starting from an unknown step with a query string', () => {
      const input = { stepParam: 'nonsense', basePath: BASE, search: QUERY }
      for (const path of shortestPaths(funnel, page, input) as unknown as GraphPath[]) {
        it(describePath(path), async () => {
          await replayPath(funnel, page, input, path)
        })
      }
    })

    describe('simple paths to the destination, starting from a missing step', () => {
      const input = { stepParam: undefined, basePath: BASE, search: QUERY }
      const paths = simplePathsToEnd(funnel, page, input) as unknown as GraphPath[]
      it('has complete paths', () => expect(paths.length).toBeGreaterThan(0))
      for (const path of sampleSimplePaths(paths)) {
        it(describePath(path), async () => {
          const browser = await replayPath(funnel, page, input, path)
          expect(browser.left).not.toBeNull()
        })
      }
    })

    describe('history: the browser back button and the form back button', () => {
      const scripts: { title: string; stepParam?: string; moves: ScriptMove[] }[] = [
        { title: 'submit, submit, browser back twice', moves: ['submit', 'submit', 'popstate', 'popstate'] },
        { title: 'submit, submit, form back, submit again', moves: ['submit', 'submit', 'back', 'submit'] },
        {
          title: 'deep link to step 3, form back replaces history',
          stepParam: funnel.steps[2]?.name,
          moves: ['back', 'submit'],
        },
      ]
      for (const s of scripts) {
        const input = { stepParam: s.stepParam ?? first, basePath: BASE, search: QUERY }
        const path =
          s.stepParam === undefined && s.title.startsWith('deep')
            ? null
            : scriptedPath(funnel, page, input, s.moves)
        it.skipIf(!path)(s.title, async () => {
          await replayPath(funnel, page, input, path as unknown as GraphPath)
        })
      }
    })

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
