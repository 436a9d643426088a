/**
 * The funnel machine's dependencies in the browser: localStorage buckets, and the client runtime's
 * tracking, demand check, form values and navigate(). Never used on the server.
 */
import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FunnelDeps } from '../../engine/funnel/funnel-deps'
import type { FormValues } from '../../engine/runtime-contracts'
import type { ClientRuntime } from '../runtime/client-runtime'

/** Every funnel event is also announced on window, so tests and tag-manager glue can observe it. */
export const FUNNEL_EVENT = 'funnelworks:funnel-event'

function announce(detail: Record<string, unknown>): void {
  window.dispatchEvent(new CustomEvent(FUNNEL_EVENT, { detail }))
}

export const localBuckets: BucketStorage = {
  read(key) {
    try {
      const raw = window.localStorage.getItem(key)
      const parsed: unknown = raw ? JSON.parse(raw) : {}
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FormValues) : {}
    } catch {
      // Storage may be disabled (private mode) or hold garbage: the funnel works without prefill.
      return {}
    }
  },
  write(key, values) {
    try {
      window.localStorage.setItem(key, JSON.stringify(values))
    } catch {
      // Full or disabled storage must not stop the visitor.
    }
  },
}

export function historyDepth(): number {
  const d = (window.history.state as { funnelDepth?: unknown } | null)?.funnelDepth
  return typeof d === 'number' && d >= 0 ? d : 0
}

export function browserFunnelDeps(runtime: ClientRuntime): FunnelDeps {
  return {
    emitter: {
      track: (event, properties) => {
        runtime.track(event, properties)
        announce({ kind: 'track', event, properties })
      },
      pageView: (page, properties) => {
        runtime.pageView(page, properties)
        announce({ kind: 'pageView', page })
      },
    },
    demandCheck: () => runtime.demandCheck().catch(() => null),
    storage: localBuckets,
    onValuesChanged: (values, changed) => runtime.formValues.publish(values, changed),
    navigation: {
      replace: (url, depth) => {
        runtime.navigate(url, {
          replace: true,
          state: { ...(window.history.state ?? {}), funnelDepth: depth },
        })
      },
      push: (url, depth) => {
        // Spec point 2: on route change the scroll goes to the top.
        if (runtime.navigate(url, { state: { funnelDepth: depth } })) window.scrollTo({ top: 0 })
      },
      back: () => window.history.back(),
      leave: (url) => window.location.assign(url),
    },
  }
}
