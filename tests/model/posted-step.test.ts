/**
 * The server path of every funnel in the catalogue (docs/decisions/0216): posting each step's form
 * runs the same machine as the browser, so valid answers walk the funnel to its end step by step, an
 * invalid answer is shown again with its error and the value kept, Skip and Back post as buttons, and
 * the buckets hold what the browser's would.
 */
import { describe, expect, it } from 'vitest'
import { formVersionBucketKey, SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import { FORM_STEP_SUBMITTED } from '../../engine/funnel/funnel-deps'
import { stepUrl } from '../../engine/funnel/funnel-location'
import { POSTED_ACTION_FIELD, POSTED_BACK, POSTED_SKIP } from '../../engine/funnel/posted-fields'
import { type PostedOutcome, postedEvent, runPostedStep } from '../../engine/funnel/posted-step'
import { invalidValue, validValue } from '../../engine/funnel/sample-values'
import type { FormValues } from '../../engine/runtime-contracts'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { funnelCatalogue, pageInfo } from './funnel-catalogue'

const BASE = '/f'

/** Buckets in a Map, as the server's store holds them for one visitor. */
function memoryBuckets() {
  const map = new Map<string, FormValues>()
  return {
    map,
    read: (k: string) => ({ ...(map.get(k) ?? {}) }),
    write: (k: string, v: FormValues) => map.set(k, v),
  }
}

async function post(
  funnel: ResolvedFunnel,
  stepName: string,
  form: Record<string, string>,
  storage = memoryBuckets(),
  tracked: { event: string; properties: Record<string, unknown> }[] = [],
): Promise<PostedOutcome> {
  const step = funnel.steps.find((s) => s.name === stepName)!
  const values = {
    ...storage.read(SHARED_BUCKET_KEY),
    ...storage.read(formVersionBucketKey(funnel.formVersion)),
  }
  return runPostedStep(
    { funnel, page: pageInfo(undefined, funnel), stepParam: stepName, basePath: BASE, search: '', values },
    postedEvent(step, new URLSearchParams(form)),
    {
      storage,
      demandCheck: async () => null,
      emitter: { track: (event, properties = {}) => tracked.push({ event, properties }), pageView: () => {} },
    },
  )
}

const validForm = (funnel: ResolvedFunnel, name: string) =>
  Object.fromEntries(
    funnel.steps.find((s) => s.name === name)!.fields.map((f) => [f.name, String(validValue(f))]),
  )

describe.each(funnelCatalogue().map(({ funnel }) => [funnel.id, funnel] as const))(
  '%s posted as plain forms',
  (_, funnel) => {
    it('walks to its end with valid answers, one formStepSubmitted per step, buckets as the browser keeps them', async () => {
      const storage = memoryBuckets()
      const tracked: { event: string; properties: Record<string, unknown> }[] = []
      let name = funnel.steps[0].name
      const visited: string[] = []
      for (let guard = 0; guard < funnel.steps.length * 2; guard++) {
        visited.push(name)
        const outcome = await post(funnel, name, validForm(funnel, name), storage, tracked)
        expect(outcome.kind, `${name}: ${JSON.stringify(outcome)}`).toBe('go')
        const url = (outcome as { url: string }).url
        const next = funnel.steps.find((s) => url === stepUrl(BASE, s.name))
        if (!next) break
        name = next.name
      }
      const submitted = tracked.filter((t) => t.event === FORM_STEP_SUBMITTED)
      expect(submitted.map((t) => t.properties.stepName)).toEqual(visited)
      const last = funnel.steps.find((s) => s.name === visited.at(-1))!
      expect(storage.read(formVersionBucketKey(funnel.formVersion))).toMatchObject(
        Object.fromEntries(last.fields.map((f) => [f.name, validValue(f)])),
      )
      expect(storage.read(SHARED_BUCKET_KEY)).toEqual(storage.read(formVersionBucketKey(funnel.formVersion)))
    })

    it('shows an invalid answer again with its error and the value kept; Back and Skip are buttons', async () => {
      const first = funnel.steps[0]
      const bad = first.fields.find(
        (f) => invalidValue(f) !== undefined && !['yes-no', 'choice'].includes(f.kind),
      )
      if (bad) {
        const outcome = await post(funnel, first.name, { [bad.name]: invalidValue(bad)! })
        expect(outcome).toMatchObject({ kind: 'show', stepIndex: 0 })
        const shown = outcome as Extract<PostedOutcome, { kind: 'show' }>
        expect(shown.errors[bad.name]).toBeTruthy()
        expect(shown.values[bad.name]).toBe(invalidValue(bad))
      }
      if (funnel.steps.length > 1)
        expect(await post(funnel, funnel.steps[1].name, { [POSTED_ACTION_FIELD]: POSTED_BACK })).toEqual({
          kind: 'go',
          url: stepUrl(BASE, first.name),
        })
      const skippable = funnel.steps.find((s) => s.skippable)
      if (skippable) {
        const outcome = await post(funnel, skippable.name, { [POSTED_ACTION_FIELD]: POSTED_SKIP })
        expect(outcome.kind).toBe('go')
      }
    })
  },
)
