import { useEffect, useMemo, useRef, useState } from 'react'
import { createActor } from 'xstate'
import { readBuckets } from '../../engine/funnel/buckets'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { funnelLocation } from '../../engine/funnel/funnel-location'
import { type FunnelEvent, funnelMachineWith } from '../../engine/funnel/funnel-machine'
import type { FieldErrors } from '../../engine/funnel/validate-field'
import type { Resolution } from '../../engine/render/resolution'
import type { FormValues } from '../../engine/runtime-contracts'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { useRuntime } from '../runtime/runtime-context'
import { startLoading } from '../shell/LoadingBar'
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
    // Answers the server kept (a step posted before hydration or without JavaScript) come first.
    void runtime.answersReady.then(() => {
      if (!stopped) stop = start(runtime)
    })
    return () => {
      stopped = true
      stop()
    }
  }, [runtime, funnel, page, location, posted])

  function start(runtime: NonNullable<ReturnType<typeof useRuntime>>): () => void {
    const stored = readBuckets(runtime.buckets, funnel.formVersion)
    // Other features (the phone lease's payload) learn the stored answers; nothing changed, so no
    // expiry is cut.
    runtime.formValues.publish(stored, [])
    const actor = createActor(funnelMachineWith(browserFunnelDeps(runtime)), {
      input: {
        funnel,
        page,
        stepParam: location.stepParam,
        basePath: location.basePath,
        search: window.location.search,
        values: { ...stored, ...posted?.values },
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

  return { view, send: (e: FunnelEvent) => send.current(e) }
}
