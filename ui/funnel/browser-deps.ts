/**
 * The funnel machine's dependencies in the browser: the client runtime's answer buckets, tracking,
 * demand check, form values and navigate(). Never used on the server.
 */
import { FORM_STEP_SUBMITTED, type FunnelDeps } from '../../engine/funnel/funnel-deps'
import type { ClientRuntime } from '../runtime/client-runtime'

/** Every funnel event is also announced on window, so tests and tag-manager glue can observe it. */
export const FUNNEL_EVENT = 'funnelworks:funnel-event'

function announce(detail: Record<string, unknown>): void {
  window.dispatchEvent(new CustomEvent(FUNNEL_EVENT, { detail }))
}

export function historyDepth(): number {
  const d = (window.history.state as { funnelDepth?: unknown } | null)?.funnelDepth
  return typeof d === 'number' && d >= 0 ? d : 0
}

/** The properties of the formStepSubmitted event the funnel machine emits. */
type SubmittedStep = { stepName: string; stepNumber: number; formVersion: string }

export function browserFunnelDeps(runtime: ClientRuntime): FunnelDeps {
  return {
    emitter: {
      track: (event, properties) => {
        // A valid submit of a step that showed a consent text is consent given (docs/decisions/0800).
        if (event === FORM_STEP_SUBMITTED) runtime.consent.given(properties as SubmittedStep)
        runtime.track(event, properties)
        announce({ kind: 'track', event, properties })
      },
      pageView: (page, properties) => {
        runtime.pageView(page, properties)
        announce({ kind: 'pageView', page })
      },
    },
    demandCheck: () => runtime.demandCheck().catch(() => null),
    storage: runtime.buckets,
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
