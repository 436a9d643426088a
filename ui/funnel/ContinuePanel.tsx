import { useEffect, useState } from 'react'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { KEYS, local, readText } from '../runtime/tracking/storage'

/**
 * The panel of "Continue on another device" (docs/decisions/0222), loaded when the visitor asks for it:
 * asks the server for a signed resume link of this funnel (no answer in it) and offers to copy it or
 * e-mail it to oneself. Answers stay on the server, expiring with their bucket.
 */
export default function ContinuePanel({ text }: { text: ResolvedFunnel['text']['funnel'] }) {
  const [link, setLink] = useState<{ url: string; mailto: string } | null>(null)
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    const anonymousId = readText(local, KEYS.anonymousId)
    if (!anonymousId) return
    fetch('/api/funnel/resume-link', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ anonymousId, path: window.location.pathname }),
    })
      .then(async (res) => {
        if (!res.ok) return void (await res.body?.cancel())
        setLink((await res.json()) as { url: string; mailto: string })
      })
      .catch(() => {})
  }, [])
  if (!link) return null
  // The server's mailto says what the link gives, for how long and where (docs/decisions/0232).
  const { url, mailto } = link
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
      <a className="link-button" href={mailto}>
        {text.emailLink}
      </a>
    </div>
  )
}
