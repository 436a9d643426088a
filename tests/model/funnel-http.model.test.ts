/**
 * Every model path of every catalogue funnel (funnel-paths.ts: the same numbered paths
 * `npm run paths -- <funnel> --replay N` walks in Chromium), walked over HTTP against the one
 * interpreter of funnel steps — the server (docs/decisions/0230) — as a browser without any script
 * walks it: each SUBMIT and SKIP is a form post, the form's Back a post of its Back button, the
 * browser's back a GET of the page before. After every move the visitor is where the machine's graph
 * says: 303 to the step shown (or to the funnel's exit at its end), 422 with the errors at the fields
 * for an invalid answer; no answer in any URL; each accepted step recorded once.
 *
 * A path that starts on a later step starts with a visitor who answered the steps before it (the
 * server places a visitor without them on the first step they need: 0230).
 *
 * Funnels whose steps are the same (names, fields, actions; only their words differ) have the same
 * graph: every path is walked on the first of them. On each of the others (its own page, brand, exit
 * and form version; in the catalogue such funnels differ in nothing else) the fewest complete paths
 * that together make every move the complete paths make — each answer of each step and each step's
 * invalid answer (coveringPaths) — instead of all of them: the rest repeat the first funnel's proof
 * of the same graph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FORM_STEP_SUBMITTED, FUNNEL_COMPLETED } from '../../engine/funnel/funnel-deps'
import type { FunnelSnapshot, GraphEvent } from '../../engine/funnel/funnel-graph'
import { stepUrl } from '../../engine/funnel/funnel-location'
import { POSTED_ACTION_FIELD, POSTED_BACK, POSTED_SKIP } from '../../engine/funnel/posted-fields'
import { validStepValues } from '../../engine/funnel/sample-values'
import type { FormValues } from '../../engine/runtime-contracts'
import type { PageEntry, ResolvedFunnel } from '../../engine/snapshot/types'
import { funnelCatalogue, pageInfo } from './funnel-catalogue'
import { type FunnelHttp, type HttpAnswer, idOfCookie, keepCookies, startFunnelHttp } from './funnel-http'
import { type FunnelModelPath, funnelModelPaths } from './funnel-paths'

let http: FunnelHttp

beforeAll(async () => {
  http = await startFunnelHttp()
}, 120_000)

afterAll(async () => {
  await http?.close()
})

const stable = (s: FunnelSnapshot) => s.status === 'done' || s.value === 'showing'
const pathOf = (url: string) => url.split('?')[0]

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;')

function formOf(values: FormValues | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, String(v)]))
}

/** One model path over HTTP; returns what it checked, for the caller's own assertions. */
async function walkOverHttp(funnel: ResolvedFunnel, page: PageEntry, p: FunnelModelPath) {
  const brand = page.brands[0]
  const base = page.path.replace(/\/\{step\?\}$/, '')
  const steps = funnel.steps
  let cookie = ''
  let accepted = 0
  const remember = (a: HttpAnswer) => {
    cookie = keepCookies(cookie, a)
  }
  // A path starting on a later step: a visitor who answered the steps before it.
  const start = p.input.stepParam === undefined ? -1 : steps.findIndex((s) => s.name === p.input.stepParam)
  for (let i = 0; i < start; i++) {
    const a = await http.post(
      brand,
      stepUrl(base, steps[i].name),
      formOf(validStepValues(steps[i].fields, true)),
      {
        cookie,
      },
    )
    expect(a.status, `answering ${steps[i].name} first`).toBe(303)
    remember(a)
    accepted++
  }
  /** The step a URL shows: one without a known step shows the first step (the server posts it as that). */
  const stepPathOf = (u: string) =>
    steps.some((s) => pathOf(u) === stepUrl(base, s.name)) ? pathOf(u) : stepUrl(base, steps[0].name)
  let url = `${p.input.stepParam === undefined ? base : stepUrl(base, p.input.stepParam)}${p.input.search}`
  /**
   * The browser's history of pages (a post answered 303 adds the page it leads to). A start without a
   * known step is entered at the first step's URL, as the machine's redirectToFirst replaces it (the
   * post itself goes to the URL as given: the server answers it as the first step).
   */
  const history: string[] = [start < 0 ? stepUrl(base, steps[0].name, p.input.search) : url]
  const moves = p.path.steps
  for (let i = 1; i < moves.length; i++) {
    const event = moves[i].event as GraphEvent
    if (event.type.startsWith('xstate.done.actor.')) continue
    // The state the graph settles in after this move.
    let j = i
    while (j < moves.length - 1 && !stable(moves[j].state as unknown as FunnelSnapshot)) j++
    const expected = moves[j].state as unknown as FunnelSnapshot
    i = j
    const where = `move ${i} ${event.type} at ${url}`
    let answer: HttpAnswer
    if (event.type === 'POPSTATE') {
      history.pop()
      url = history.at(-1)!
      answer = await http.get(brand, url, cookie)
      expect(answer.status, where).toBe(200)
    } else {
      const form =
        event.type === 'SUBMIT'
          ? formOf(event.values)
          : { [POSTED_ACTION_FIELD]: event.type === 'SKIP' ? POSTED_SKIP : POSTED_BACK }
      answer = await http.post(brand, url, form, cookie ? { cookie } : {})
      remember(answer)
      if (answer.status === 303) {
        url = answer.location!
        history.push(url)
        for (const v of Object.values(event.type === 'SUBMIT' ? formOf(event.values) : {}))
          if (v.length > 3) expect(url, `${where}: an answer in the URL`).not.toContain(encodeURIComponent(v))
      }
    }
    // A path that ends mid-move (an on-submit action under way): the server settles the move in the
    // same request; the paths that go on check where it leads.
    if (!stable(expected)) {
      if (event.type === 'SUBMIT' || event.type === 'SKIP') accepted++
      break
    }
    if (expected.status === 'done') {
      expect(answer.status, where).toBe(303)
      expect(pathOf(url), where).toBe(expected.context.exit)
      if (event.type === 'SUBMIT' || event.type === 'SKIP') accepted++
      continue
    }
    const shown = steps[expected.context.stepIndex].name
    const invalid = Object.values(expected.context.errors).some(Boolean)
    if (event.type === 'SUBMIT' && invalid) {
      expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBe(422)
      // The step again with its errors at the fields: the machine's own messages, as HTML escapes them.
      const messages = Object.values(expected.context.errors).filter((m): m is string => !!m)
      expect(
        messages.some((m) => answer.body.includes(escapeHtml(m))),
        `${where}: ${messages.join(' | ')}`,
      ).toBe(true)
    } else {
      if (event.type === 'SUBMIT' || event.type === 'SKIP') accepted++
      if (event.type !== 'POPSTATE') expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBe(303)
    }
    expect(stepPathOf(url), where).toBe(stepUrl(base, shown))
  }
  return { anonymousId: idOfCookie(cookie), accepted }
}

/** What makes two funnels' graphs the same: their steps without their words. */
const shapeOf = (funnel: ResolvedFunnel) =>
  JSON.stringify(
    funnel.steps.map((s) => [
      s.name,
      s.fields.map((f) => [f.name, f.kind, f.required, f.options?.map((o) => o.value)]),
      s.onEnter,
      s.onSubmit,
      s.skippable,
    ]),
  )

/** The moves of a path's line: "zip(invalid) → zip(90210) → …" → its steps with their outcomes. */
const movesOf = (p: FunnelModelPath) => p.line.split(' → ')

/**
 * The fewest complete paths (greedily) that together make every move any complete path makes; the
 * first path in number order wins a tie, so the choice is the same on every run.
 */
function coveringPaths(paths: FunnelModelPath[]): FunnelModelPath[] {
  const complete = paths.filter((p) => p.kind === 'complete')
  const missing = new Set(complete.flatMap(movesOf))
  const chosen: FunnelModelPath[] = []
  while (missing.size > 0) {
    let best = complete[0]
    let gain = -1
    for (const p of complete) {
      const g = new Set(movesOf(p).filter((m) => missing.has(m))).size
      if (g > gain) [best, gain] = [p, g]
    }
    for (const m of movesOf(best)) missing.delete(m)
    chosen.push(best)
  }
  return chosen.sort((a, b) => a.n - b.n)
}

const shapesWalked = new Set<string>()
for (const { funnel, pages } of funnelCatalogue()) {
  const page = pages[0]
  const shape = shapeOf(funnel)
  const first = !shapesWalked.has(shape)
  shapesWalked.add(shape)
  describe(`funnel ${funnel.id} over HTTP, without a browser`, () => {
    if (!page) {
      it.skip('is on no page: nothing serves it', () => {})
      return
    }
    const all = funnelModelPaths(funnel, pageInfo(page, funnel))
    const paths = first ? all : coveringPaths(all)
    for (const p of paths)
      it(`#${p.n} ${p.line}`, async () => {
        let walked: Awaited<ReturnType<typeof walkOverHttp>>
        try {
          walked = await walkOverHttp(funnel, page, p)
        } catch (e) {
          ;(e as Error).message += `\n  path ${p.n} (${p.kind}): ${p.line}`
          throw e
        }
        const end = p.path.steps.at(-1)!.state as unknown as FunnelSnapshot
        if (!walked.anonymousId) return
        // Each accepted step is recorded once; a finished funnel once.
        const events = await http.store.db.query<{ name: string }>(
          'SELECT name FROM events WHERE anonymous_id = $1',
          [walked.anonymousId],
        )
        const names = events.rows.map((r) => r.name)
        expect(names.filter((n) => n === FORM_STEP_SUBMITTED)).toHaveLength(walked.accepted)
        expect(names.filter((n) => n === FUNNEL_COMPLETED)).toHaveLength(
          end.status === 'done' && end.value === 'finished' ? 1 : 0,
        )
        // A few requests each, rendered by Vite on a shared machine: generous, never a fixed sleep.
      }, 60_000)
  })
}
