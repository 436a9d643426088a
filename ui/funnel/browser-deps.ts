/**
 * The funnel machine's dependencies in the browser: localStorage buckets, the History API, and the
 * shared client services (tracking, demand check, form-value listeners). Never used on the server.
 */
import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FunnelDeps } from '../../engine/funnel/funnel-deps'
import type { FormValues } from '../../engine/runtime-contracts'
import { installServices, publishFormValues, services } from '../runtime/services'

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

export function browserFunnelDeps(): FunnelDeps {
  return {
    emitter: {
      track: (event, properties) => {
        services.track(event, properties)
        announce({ kind: 'track', event, properties })
      },
      pageView: (page, properties) => {
        services.pageView(page, properties)
        announce({ kind: 'pageView', page })
      },
    },
    demandCheck: async () => {
      const result = await services.demandCheck().catch(() => null)
      if (result) installServices({ lastDemand: result })
      return result
    },
    storage: localBuckets,
    onValuesChanged: (values, changed) => publishFormValues(values, changed),
    navigation: {
      replace: (url, depth) => {
        window.history.replaceState({ ...(window.history.state ?? {}), funnelDepth: depth }, '', url)
      },
      push: (url, depth) => {
        window.history.pushState({ funnelDepth: depth }, '', url)
        // Spec point 2: on route change the scroll goes to the top.
        window.scrollTo({ top: 0 })
      },
      back: () => window.history.back(),
      leave: (url) => window.location.assign(url),
    },
  }
}
