import { useEffect, useMemo, useRef, useState } from 'react'
import { createActor } from 'xstate'
import { formVersionBucketKey, readBuckets } from '../../engine/funnel/buckets'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { type FunnelLocation, funnelLocation, stepUrl } from '../../engine/funnel/funnel-location'
import { type FunnelEvent, funnelMachineWith } from '../../engine/funnel/funnel-machine'
import type { FieldErrors } from '../../engine/funnel/validate-field'
import type { Resolution } from '../../engine/render/resolution'
import type { FormValues } from '../../engine/runtime-contracts'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { startLoading } from '../islands/loading-bar-island'
import { useRuntime } from '../runtime/runtime-context'
import { local, readText, writeText } from '../runtime/tracking/storage'
import { browserFunnelDeps, historyDepth } from './browser-deps'

/** What the renderer draws; the same shape before hydration (from the URL) and after (from the machine). */
export interface FunnelView {
  stepIndex: number
  values: FormValues
  errors: FieldErrors
  /** Handling a submit (on-submit actions) or leaving the page. */
  busy: boolean
  /** The machine runs (after hydration). */
  live: boolean
}

/**
 * Runs the funnel machine in the browser. The server render and the first client render show the
 * URL's step (or the first step for a missing or unknown one) with no answers, so hydration matches;
 * the machine starts after hydration, prefills from the buckets and fixes the URL.
 */
export function useFunnel(resolution: Resolution, funnel: ResolvedFunnel, page: FunnelPageInfo) {
  const location = useMemo(
    () =>
      funnelLocation(
        resolution.pathname,
        resolution.params,
        funnel.steps.map((s) => s.name),
      ),
    [resolution.pathname, resolution.params, funnel],
  )
  const initialIndex = Math.max(
    0,
    funnel.steps.findIndex((s) => s.name === location.stepParam),
  )
  // A step posted as a plain form and shown again by the server comes with its answers and errors.
  const posted = resolution.funnelPost
  const [view, setView] = useState<FunnelView>({
    stepIndex: initialIndex,
    values: {},
    errors: {},
    ...posted,
    busy: false,
    live: false,
  })
  const send = useRef<(event: FunnelEvent) => void>(() => {})
  const runtime = useRuntime()

  useEffect(() => {
    if (!runtime) return
    let stopped = false
    let stop = () => {}
    // Answers the server kept (a step posted before hydration or without JavaScript) come first,
    // then a returning visitor is taken to the first step that needs an answer (0220).
    void runtime.answersReady
      .then(() => startingPoint(runtime, funnel, page, location.stepParam, posted))
      .then((from) => {
        if (stopped) return
        if (from.stepParam !== location.stepParam)
          runtime.navigate(stepUrl(location.basePath, from.stepParam!, window.location.search), {
            replace: true,
            state: { ...(window.history.state ?? {}), funnelDepth: 0 },
          })
        // The entry is the funnel's from now on: a reload or a return to it is not a fresh entry.
        else window.history.replaceState({ ...(window.history.state ?? {}), funnelDepth: historyDepth() }, '')
        stop = startFunnel(runtime, { funnel, page, location, ...from }, setView, send)
      })
    return () => {
      stopped = true
      stop()
    }
  }, [runtime, funnel, page, location, posted])

  return { view, send: (e: FunnelEvent) => send.current(e) }
}

type Runtime = NonNullable<ReturnType<typeof useRuntime>>

/** Marks a funnel this browser has run (in any form version): a later visit may resume it (0220). */
const seenKey = (funnel: ResolvedFunnel) => `funnelworks:seen:${funnel.id}`

/**
 * The step and answers the machine starts from: the URL's step with the stored answers (migrated to
 * the funnel as it is now), or — for a fresh entry at the funnel's start (no step in the URL, or the
 * first step without a history entry of ours) — the first step that needs an answer.
 */
async function startingPoint(
  runtime: Runtime,
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  stepParam: string | undefined,
  posted: Resolution['funnelPost'],
): Promise<{ stepParam: string | undefined; values: FormValues }> {
  const given = { ...readBuckets(runtime.buckets, funnel.formVersion), ...posted?.values }
  if (Object.keys(given).length === 0) return { stepParam, values: given }
  // Loaded only when there are answers to carry over (a first visit needs none of it).
  const { migrateAnswers, resumePoint } = await import('../../engine/funnel/resume')
  const values = migrateAnswers(funnel, given)
  const fresh = (window.history.state as { funnelDepth?: unknown } | null)?.funnelDepth === undefined
  const atStart = stepParam === undefined || stepParam === funnel.steps[0].name
  // Only a visitor returning to this funnel resumes (answers from other funnels only prefill).
  const returning =
    readText(local, seenKey(funnel)) !== null ||
    Object.keys(runtime.buckets.read(formVersionBucketKey(funnel.formVersion))).length > 0
  if (posted || !fresh || !atStart || !returning) return { stepParam, values }
  const point = await resumePoint(funnel, page, values, runtime.lastDemand())
  return { stepParam: funnel.steps[point.stepIndex].name, values: point.values }
}

function startFunnel(
  runtime: Runtime,
  at: {
    funnel: ResolvedFunnel
    page: FunnelPageInfo
    location: FunnelLocation
    stepParam: string | undefined
    values: FormValues
  },
  setView: (view: FunnelView) => void,
  send: { current: (event: FunnelEvent) => void },
): () => void {
  const { funnel, page, location } = at
  writeText(local, seenKey(funnel), '1')
  // Other features (the phone lease's payload) learn the stored answers; nothing changed, so no
  // expiry is cut.
  runtime.formValues.publish(at.values, [])
  const actor = createActor(funnelMachineWith(browserFunnelDeps(runtime)), {
    input: {
      funnel,
      page,
      stepParam: at.stepParam,
      basePath: location.basePath,
      search: window.location.search,
      values: at.values,
      demand: runtime.lastDemand(),
      depth: historyDepth(),
    },
  })
  let endLoading: (() => void) | null = null
  const sub = actor.subscribe((snap) => {
    // Busy while a submit is handled or the page is being left; on-enter actions (a demand check)
    // run in the background and never block typing or submitting (the machine queues a submit).
    const busy = snap.status === 'done' || snap.matches('submitting')
    if (busy && !endLoading) endLoading = startLoading()
    if (!busy && endLoading) {
      endLoading()
      endLoading = null
    }
    const c = snap.context
    setView({ stepIndex: c.stepIndex, values: c.values, errors: c.errors, busy, live: true })
  })
  const onPop = () => {
    const path = window.location.pathname.replace(/\/+$/, '')
    const step = path.startsWith(`${location.basePath}/`)
      ? decodeURIComponent(path.slice(location.basePath.length + 1))
      : undefined
    actor.send({ type: 'POPSTATE', step, depth: historyDepth() })
  }
  window.addEventListener('popstate', onPop)
  send.current = (e) => actor.send(e)
  actor.start()
  return () => {
    window.removeEventListener('popstate', onPop)
    sub.unsubscribe()
    actor.stop()
    endLoading?.()
  }
}
