import { useState } from 'react'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { KEYS, local, readText } from '../runtime/tracking/storage'

/**
 * "Continue on another device" (docs/decisions/0222): asks the server for a signed resume link of
 * this funnel (no answer in it) and offers to copy it or e-mail it to oneself. Shown once the funnel
 * runs; answers stay on the server, expiring with their bucket.
 */
export function ContinueElsewhere({ text, path }: { text: ResolvedFunnel['text']['funnel']; path: string }) {
  const [url, setUrl] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const anonymousId = readText(local, KEYS.anonymousId)
  if (!anonymousId) return null
  const make = async () => {
    try {
      const res = await fetch('/api/funnel/resume-link', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ anonymousId, path }),
      })
      if (!res.ok) return void (await res.body?.cancel())
      setUrl(((await res.json()) as { url: string }).url)
    } catch {}
  }
  if (!url)
    return (
      <button type="button" className="link-button funnel-elsewhere" onClick={make}>
        {text.continueElsewhere}
      </button>
    )
  return (
    <div className="funnel-elsewhere">
      <input className="field-input" readOnly value={url} aria-label={text.continueElsewhere} />
      <button
        type="button"
        className="link-button"
        onClick={() =>
          navigator.clipboard?.writeText(url).then(
            () => setCopied(true),
            () => {},
          )
        }
      >
        {copied ? text.linkCopied : text.copyLink}
      </button>
      <a
        className="link-button"
        href={`mailto:?subject=${encodeURIComponent(text.continueElsewhere)}&body=${encodeURIComponent(url)}`}
      >
        {text.emailLink}
      </a>
    </div>
  )
}
