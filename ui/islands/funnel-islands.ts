/**
 * The client entry of funnel steps (docs/decisions/0524): nothing hydrates and no funnel machine runs
 * in the browser; the server renders every step, runs the machine on every post and holds the
 * answers. The static templates' islands (start-islands.ts, 0520) start as there; the form island
 * (funnel-form-island.ts) attaches to the step's inputs at once, the loading bar with it, and the
 * resume notice and "Continue on another device" with the runtime.
 */
import { FUNNEL_NOTICE_COOKIE, FUNNEL_NOTICE_RESUME_INVALID } from '../../engine/constants'
import { funnelLocation, stepUrl } from '../../engine/funnel/funnel-location'
import type { ClientRuntime } from '../runtime/client-runtime'
import { readCookie } from '../runtime/cookies'
import { mountFunnelForm } from './funnel-form-island'
import { mountLoadingBar } from './loading-bar-island'
import { islandIn } from './mount-islands'
import { startIslands } from './start-islands'

export function startFunnelIslands(doc: Document = document): void {
  let runtime: ClientRuntime | null = null
  /** Hands the answers typed before the runtime started over to it. */
  let startedWith: (runtime: ClientRuntime) => void = () => {}
  startIslands(doc, {
    now(root, resolution) {
      const bar = islandIn<HTMLElement>(root, 'loading-bar')
      if (bar) mountLoadingBar(bar)
      const box = islandIn<HTMLElement>(root, 'form')
      if (!box || !resolution.funnel) return
      // The funnel's address without a step (the first page everybody gets), or with one the funnel
      // does not have, names the step shown from now on, so Back to this entry shows that step with
      // the answers the server holds: such an address is a fresh entry, which the server sends on to
      // where the visitor stopped (0230, 0525).
      const names = resolution.funnel.steps.map((s) => s.name)
      const at = funnelLocation(resolution.pathname, resolution.params, names)
      const first = box.querySelector<HTMLElement>('form.funnel-form')?.dataset.step
      const named = at.stepParam !== undefined && names.includes(at.stepParam)
      if (first && !named && location.pathname === resolution.pathname)
        history.replaceState(
          history.state,
          '',
          `${stepUrl(at.basePath, first, location.search)}${location.hash}`,
        )
      const values = new Map<string, unknown>()
      mountFunnelForm(box, resolution.funnel, {
        values(next) {
          for (const [k, v] of Object.entries(next)) values.set(k, v)
          runtime?.formValues.publish(next, [])
        },
        navigate(url) {
          if (runtime) return runtime.navigate(url)
          history.pushState(null, '', url)
          return true
        },
        stepShown(posted) {
          showElsewhere(box)
          // A posted quote change is a change of the answers the server holds: the phone lease cuts its
          // number's expiry and shows the one the server leased for them (0235).
          runtime?.formValues.publish({}, posted)
        },
      })
      // Until the runtime runs, the answers typed are kept here and handed over when it starts.
      startedWith = (r) => {
        runtime = r
        r.formValues.publish(Object.fromEntries(values), [])
      }
    },
    started(root, r) {
      startedWith(r)
      const notice = islandIn<HTMLElement>(root, 'resume-notice')
      // An expired or altered resume link (docs/decisions/0222) said so with a cookie: shown once.
      if (notice && readCookie(FUNNEL_NOTICE_COOKIE) === FUNNEL_NOTICE_RESUME_INVALID) {
        doc.cookie = `${FUNNEL_NOTICE_COOKIE}=; Max-Age=0; Path=/`
        notice.hidden = false
      }
      const box = islandIn<HTMLElement>(root, 'form')
      if (box) showElsewhere(box)
    },
  })
}

/** "Continue on another device" (docs/decisions/0222): its panel is loaded when it is pressed. */
function showElsewhere(box: HTMLElement): void {
  const button = islandIn<HTMLButtonElement>(box, 'continue-elsewhere')
  if (!button?.hidden) return
  button.hidden = false
  button.addEventListener(
    'click',
    () => void import('./continue-elsewhere-island').then((m) => m.openContinuePanel(button)),
    { once: true },
  )
}
