import { ccPath } from '../../engine/render/control-center-routes'
import type { CcLive } from '../../schemas/generated/cc-answers/live'
import { useApi } from './api'
import { useCc } from './cc-context'
import { FormError, laTime } from './States'
import { useMutation } from './use-mutation'
import { useResource } from './use-resource'

/**
 * A commit on published that failed its checks (docs/decisions/0610): publishers see what was refused
 * and why, and one action that moves published back to the commit being served. A move of published
 * by hand on the server (docs/decisions/0620) shows until the next publication.
 */
export function LiveHealthBanner() {
  const { may, changed } = useCc()
  const api = useApi()
  const live = useResource<CcLive>(may('publish') ? '/api/cc/live' : null)
  const restore = useMutation((refused: string) => api('POST', '/api/cc/live/restore', { refused }), {
    onDone: () => {
      live.reload()
      changed()
    },
  })
  const health = live.data?.live
  const outside = live.data?.movedOutside
  if (outside && !health?.refused)
    return (
      <div className="cc-banner cc-banner-error cc-live-moved-outside" role="alert">
        <p>
          <strong>Live was moved outside the control center.</strong> Published went from{' '}
          <code>{outside.from?.slice(0, 7) ?? '—'}</code> to <code>{outside.to.slice(0, 7)}</code> at{' '}
          {laTime(outside.at)} without a publish (publication #{outside.publication} in the Live history). If
          that was not meant, roll it back there.
        </p>
        <a className="button" href={`${ccPath('branches')}?tab=history`}>
          Open the Live history
        </a>
      </div>
    )
  if (!health?.refused || !health.serving) return null
  const { refused, serving } = health
  return (
    <div className="cc-banner cc-banner-error cc-live-refused" role="alert">
      <p>
        <strong>Live is not what published says.</strong> Commit <code>{refused.commit.slice(0, 7)}</code> on
        published failed its checks, so the site keeps serving <code>{serving.slice(0, 7)}</code>:
      </p>
      <ul className="cc-list">
        {refused.errors.map((e) => (
          <li key={e}>
            <code>{e}</code>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button button-primary"
        disabled={restore.busy}
        onClick={() => restore.run(refused.commit)}
      >
        Restore live to {serving.slice(0, 7)}
      </button>
      <FormError message={restore.error} />
    </div>
  )
}
