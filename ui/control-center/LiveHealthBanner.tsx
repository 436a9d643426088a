import type { LiveHealth } from '../../schemas/generated/cc-answers/live'
import { useApi } from './api'
import { useCc } from './cc-context'
import { FormError } from './States'
import { useMutation } from './use-mutation'
import { useResource } from './use-resource'

/**
 * A commit on published that failed its checks (docs/decisions/0610): publishers see what was refused
 * and why, and one action that moves published back to the commit being served.
 */
export function LiveHealthBanner() {
  const { may, changed } = useCc()
  const api = useApi()
  const live = useResource<{ live: LiveHealth }>(may('publish') ? '/api/cc/live' : null)
  const restore = useMutation((refused: string) => api('POST', '/api/cc/live/restore', { refused }), {
    onDone: () => {
      live.reload()
      changed()
    },
  })
  const health = live.data?.live
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
