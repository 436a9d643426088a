import { useState } from 'react'
import type { LiveHealth } from '../../schemas/generated/cc-answers/live'
import { useApi } from './api'
import { useCc } from './cc-context'
import { FormError } from './States'
import { useResource } from './use-resource'

/**
 * A commit on published that failed its checks (docs/decisions/0610): publishers see what was refused
 * and why, and one action that moves published back to the commit being served.
 */
export function LiveHealthBanner() {
  const { may, changed } = useCc()
  const api = useApi()
  const live = useResource<{ live: LiveHealth }>(may('publish') ? '/api/cc/live' : null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const health = live.data?.live
  if (!health?.refused || !health.serving) return null
  const { refused, serving } = health
  const restore = async () => {
    setBusy(true)
    setError(null)
    try {
      await api('POST', '/api/cc/live/restore', { refused: refused.commit })
      live.reload()
      changed()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
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
      <button type="button" className="button button-primary" disabled={busy} onClick={restore}>
        Restore live to {serving.slice(0, 7)}
      </button>
      <FormError message={error} />
    </div>
  )
}
