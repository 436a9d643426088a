/**
 * Resume across revisions, generated (issue 29; docs/decisions/0220): for pairs of funnel revisions —
 * generated mutations of every catalogue funnel (a step inserted, removed, two swapped, a field
 * renamed or changed in kind, the form version bumped) and each pair of the last 20 git revisions of
 * each definitions/funnels file — every half-finished state the funnel's model paths reach resumes
 * into a valid state of the new machine. States are sampled deterministically to keep the run short.
 * Funnels with the same steps in the same language (12 Medicare funnels share theirs) have the same
 * half-finished states and the same generated revisions: each such shape is tried once, the test
 * naming the funnels it stands for; a revision pair of the history is tried once per distinct pair of
 * step lists.
 */
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { validatorFor } from '../../engine/definitions/validators'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { funnelMachineWith } from '../../engine/funnel/funnel-machine'
import { migrateAnswers } from '../../engine/funnel/migrate-answers'
import { answersOnlyLive, replayMove, resumePoint } from '../../engine/funnel/resume'
import { validateStep } from '../../engine/funnel/validate-field'
import type { FormValues } from '../../engine/runtime-contracts'
import type { ResolvedFunnel, ResolvedStep, Step } from '../../engine/snapshot/types'
import type { Funnel } from '../../schemas/generated/funnel'
import { funnelCatalogue, loadSnapshot, pageInfo } from './funnel-catalogue'
import { funnelModelPaths } from './funnel-paths'

/** Half-finished states tried per funnel (spread evenly over the model's paths). */
const STATES_PER_FUNNEL = 10
const HISTORY_REVISIONS = 20
const root = resolve(import.meta.dirname, '..', '..')
const snapshot = loadSnapshot()
const catalogue = funnelCatalogue(snapshot)
const FIELD_NAMES = (
  (validatorFor('field.schema.json').schema as { $defs: { FieldName: { enum: string[] } } }).$defs.FieldName
    .enum as (keyof FormValues)[]
).slice()

type Field = ResolvedStep['fields'][number]
/** What the rule promises a kept answer is (written out here, not taken from the rule). */
const fits = (f: Field, v: unknown) =>
  v === '' ||
  (f.kind === 'yes-no'
    ? typeof v === 'boolean'
    : f.kind === 'choice'
      ? typeof v === 'string' && !!f.options?.some((o) => o.value === v)
      : typeof v === 'string')

/** A funnel's shape: what its half-finished states and its generated revisions depend on. */
const shapeOf = (funnel: ResolvedFunnel) => JSON.stringify({ language: funnel.language, steps: funnel.steps })
const sampled = new Map<string, FormValues[]>()

/** The answers of every stable half-finished state along the funnel's model paths, sampled evenly (once per shape). */
function halfFinished(funnel: ResolvedFunnel, page: FunnelPageInfo): FormValues[] {
  const key = shapeOf(funnel)
  const states = sampled.get(key) ?? sampleHalfFinished(funnel, page)
  sampled.set(key, states)
  return states
}

function sampleHalfFinished(funnel: ResolvedFunnel, page: FunnelPageInfo): FormValues[] {
  const seen = new Map<string, FormValues>()
  for (const p of funnelModelPaths(funnel, page))
    for (const s of p.path.steps) {
      const snap = s.state as unknown as { value: unknown; status: string; context: { values: FormValues } }
      if (snap.status !== 'done' && snap.value === 'showing')
        seen.set(JSON.stringify(snap.context.values), snap.context.values)
    }
  const all = [...seen.values()]
  const stride = Math.max(1, Math.ceil(all.length / STATES_PER_FUNNEL))
  return all.filter((_, i) => i % stride === 0)
}

/** Generated next revisions of a funnel: each a name and the funnel as it would be published. */
function mutations(funnel: ResolvedFunnel): { name: string; next: ResolvedFunnel }[] {
  const out: { name: string; next: ResolvedFunnel }[] = []
  const withSteps = (name: string, steps: ResolvedStep[]): void => {
    out.push({ name, next: { ...funnel, steps } })
  }
  const { steps } = funnel
  const used = new Set(steps.flatMap((s) => s.fields.map((f) => f.name)))
  out.push({ name: 'form version bumped', next: { ...funnel, formVersion: `${funnel.formVersion}-next` } })
  // A step of another funnel in the same language, asking something this one does not.
  const donor = catalogue
    .flatMap((c) => (c.funnel.language === funnel.language ? c.funnel.steps : []))
    .find(
      (s) =>
        !steps.some((x) => x.name === s.name) &&
        s.fields.every((f) => !used.has(f.name)) &&
        !answersOnlyLive(s),
    )
  if (donor)
    for (const at of new Set([0, Math.min(2, steps.length - 1), steps.length - 1]))
      withSteps(`"${donor.name}" inserted at ${at}`, [...steps.slice(0, at), donor, ...steps.slice(at)])
  if (steps.length > 1)
    for (const [i, s] of steps.entries())
      withSteps(
        `"${s.name}" removed`,
        steps.filter((_, j) => j !== i),
      )
  for (let i = 0; i + 1 < steps.length; i++) {
    const swapped = [...steps]
    ;[swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]]
    withSteps(`steps ${i} and ${i + 1} swapped`, swapped)
  }
  if (steps.length > 2)
    withSteps('steps reversed but the last', [...steps.slice(0, -1).reverse(), steps.at(-1)!])
  const spare = FIELD_NAMES.filter((n) => !used.has(n))
  for (const [i, s] of steps.entries())
    for (const [k, f] of s.fields.entries()) {
      const change = (name: string, field: Field) =>
        withSteps(
          name,
          steps.map((x, j) =>
            j === i ? { ...x, fields: x.fields.map((y, m) => (m === k ? field : y)) } : x,
          ),
        )
      if (spare.length)
        change(`field "${f.name}" of "${s.name}" renamed to "${spare[0]}"`, { ...f, name: spare[0] } as Field)
      if (f.kind === 'yes-no')
        change(`field "${f.name}" of "${s.name}" became a choice`, {
          ...f,
          kind: 'choice',
          options: [
            { value: 'a', label: 'A' },
            { value: 'b', label: 'B' },
          ],
        } as Field)
      if (f.kind === 'choice' && f.options)
        change(`choice "${f.name}" of "${s.name}" lost its first option`, {
          ...f,
          options: [...f.options.slice(1), { value: 'new-option', label: 'New' }],
        } as unknown as Field)
    }
  return out
}

/** A resumed state is valid for the new funnel (the properties docs/decisions/0220 promises). */
async function expectValidResume(
  next: ResolvedFunnel,
  page: FunnelPageInfo,
  stored: FormValues,
  label: string,
) {
  const r = await resumePoint(next, page, stored)
  const where = `${label}; stored ${JSON.stringify(stored)} → step ${r.stepIndex} after ${JSON.stringify(r.answered)}`
  expect(r.stepIndex, where).toBeGreaterThanOrEqual(0)
  expect(r.stepIndex, where).toBeLessThan(next.steps.length)
  // The route to it starts at the first step; every step on it was answered under today's rules and
  // none showed the consent text: no step is shown whose preconditions do not hold.
  if (r.answered.length) expect(r.answered[0], where).toBe(0)
  for (const i of r.answered) {
    const step = next.steps[i]
    expect(answersOnlyLive(step), where).toBe(false)
    const skipped = step.skippable && step.fields.every((f) => r.values[f.name] === '')
    if (!skipped) expect(validateStep(step.fields, r.values, next.text.messages), where).toEqual({})
  }
  expect(r.answered, where).not.toContain(r.stepIndex)
  // Every answer kept fits its field today; every answer that fits was kept.
  for (const step of next.steps)
    for (const f of step.fields)
      if (f.name in r.values) expect(fits(f, r.values[f.name]), `${where}: ${f.name}`).toBe(true)
  for (const key of Object.keys(migrateAnswers(next, stored))) expect(r.values, where).toHaveProperty(key)
  // It stops where the visitor must act: the last step, the consent step, an unanswered one, or one
  // whose actions decide (stay or leave).
  const step = next.steps[r.stepIndex]
  const mustAct =
    r.stepIndex === next.steps.length - 1 ||
    answersOnlyLive(step) ||
    replayMove(next, step, r.values) === null ||
    step.onSubmit !== undefined ||
    step.onEnter !== undefined
  expect(mustAct, where).toBe(true)
  // The new machine starts there with those answers and settles (a valid state of it).
  const actor = createActor(
    funnelMachineWith({
      emitter: { track: () => {}, pageView: () => {} },
      demandCheck: async () => null,
      storage: { read: () => ({}), write: () => {} },
      navigation: { replace: () => {}, push: () => {}, back: () => {}, leave: () => {} },
    }),
    { input: { funnel: next, page, stepParam: step.name, basePath: '/f', search: '', values: r.values } },
  ).start()
  // No timers run here: it settles at once; the bound only turns a hang into a failure, even on a loaded machine.
  const settled = await waitFor(actor, (s) => s.matches('showing') || s.status === 'done', {
    timeout: 30_000,
  })
  actor.stop()
  expect(settled.status === 'done' || settled.matches('showing'), where).toBe(true)
}

/** The catalogue's funnels grouped by shape, in catalogue order. */
const shapes = new Map<string, (typeof catalogue)[number][]>()
for (const entry of catalogue)
  shapes.set(shapeOf(entry.funnel), [...(shapes.get(shapeOf(entry.funnel)) ?? []), entry])

describe('resume into a generated next revision of each catalogue funnel shape', () => {
  for (const [{ funnel, pages }, ...same] of shapes.values()) {
    const page = pageInfo(pages[0], funnel)
    const names = [funnel.id, ...same.map((s) => s.funnel.id)].join(', ')
    it(`${names}: every sampled half-finished state resumes validly after each mutation`, {
      timeout: 120_000,
    }, async () => {
      const states = halfFinished(funnel, page)
      expect(states.length).toBeGreaterThan(0)
      const revisions = [{ name: 'unchanged', next: funnel }, ...mutations(funnel)]
      for (const { name, next } of revisions)
        for (const stored of states) await expectValidResume(next, page, stored, `${funnel.id}, ${name}`)
    })
  }
})

// --- Real history of definitions/funnels -------------------------------------------------------------

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 8 << 20 })
const validFunnel = validatorFor('funnel.schema.json')
const validStep = validatorFor('step.schema.json')

/** A funnel file as it was at `rev`, resolved with the steps of that revision (else today's); null when it does not parse. */
function funnelAt(rev: string, file: string, current: ResolvedFunnel): ResolvedFunnel | null {
  try {
    const doc = JSON.parse(git('show', `${rev}:${file}`)) as Funnel
    if (!validFunnel(doc)) return null
    const steps: ResolvedStep[] = []
    for (const ref of doc.steps) {
      let step: Step | undefined
      try {
        const old = JSON.parse(git('show', `${rev}:definitions/steps/${ref.step}.json`)) as Step
        step = validStep(old) ? old : undefined
      } catch {
        step = snapshot.steps.get(ref.step)
      }
      if (!step) return null
      const { $schema: _s, ...rest } = step
      steps.push({ ...rest, ...(ref.overrides ?? {}), stepId: step.id } as ResolvedStep)
    }
    return { ...current, formVersion: doc.formVersion, steps }
  } catch {
    return null
  }
}

/** Pairs of step lists already tried (a pair of revisions that differ elsewhere resumes the same way). */
const triedPairs = new Set<string>()

describe('resume across each pair of the last 20 git revisions of each funnel file', () => {
  for (const { funnel, pages } of catalogue) {
    const file = `definitions/funnels/${funnel.id}.json`
    it(`${file}`, { timeout: 120_000 }, async () => {
      const revs = git('log', '--format=%H', '-n', String(HISTORY_REVISIONS), '--', file)
        .split('\n')
        .filter(Boolean)
      const parsed = revs.map((r) => funnelAt(r, file, funnel))
      const usable = parsed.filter((f): f is ResolvedFunnel => f !== null)
      const skipped = parsed.length - usable.length
      if (skipped) console.info(`${file}: ${skipped} of ${revs.length} revisions do not parse today; skipped`)
      const page = pageInfo(pages[0], funnel)
      const statesOf = new Map(usable.map((f) => [f, halfFinished(f, page).slice(0, 4)]))
      let pairs = 0
      for (const older of usable)
        for (const newer of usable) {
          if (older === newer) continue
          pairs++
          const pair = JSON.stringify([shapeOf(older), shapeOf(newer)])
          if (triedPairs.has(pair)) continue
          triedPairs.add(pair)
          for (const stored of statesOf.get(older)!)
            await expectValidResume(newer, page, stored, `${file} pair ${pairs}`)
        }
      expect(pairs).toBe(usable.length * (usable.length - 1))
    })
  }
})
