import { useEffect, useRef, useState } from 'react'
import { LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { PresenceAnswer } from '../../schemas/generated/cc-answers/presence'
import { branchApi, useApi } from './api'
import { CC_PRESENCE_RETRY_MS } from './cc-constants'
import { useCc } from './cc-context'
import './merge.css'

/** Editors of one file open in this tab (a Source tab and a form of the same page): leave once, when the last closes. */
const openHere = new Map<string, number>()

const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' })
/** `2:14 pm`, in the reader's own time. */
export const clockTime = (iso: string) =>
  TIME.format(new Date(iso)).replace(/\s?([AP]M)$/, (_, m) => ` ${m.toLowerCase()}`)

/** What a file is, for "… is also editing this page". */
export function fileNoun(path: string): string {
  const folder = /^definitions\/([^/]+)\//.exec(path)?.[1]
  const nouns: Record<string, string> = {
    pages: 'page',
    articles: 'article',
    authors: 'author',
    funnels: 'funnel',
    steps: 'step',
    experiments: 'experiment',
    'phone-rules': 'phone rule',
  }
  return (folder && nouns[folder]) || 'file'
}

/** `Dana`, `Dana and Sam`, `Dana, Sam and Lee`. */
function names(list: string[]): string {
  return list.length < 2 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`
}

/**
 * "Dana is also editing this page (since 2:14 pm)": while an editor of `path` is open on a branch, it
 * sends a heartbeat and asks who else has the same file open there (CONTROL-CENTER §2.5 A,
 * docs/decisions/0950), so two people learn of each other before their commits meet. Says nothing on
 * live, to people who cannot edit, or when nobody else is there; a failing check says so quietly.
 */
export function Presence({ branch, path }: { branch: string; path: string }) {
  const { may } = useCc()
  const api = useApi()
  const [others, setOthers] = useState<PresenceAnswer['others']>([])
  const [failed, setFailed] = useState(false)
  /** The server's timing, from its first answer (server/api/control-center/presence.ts). */
  const timing = useRef<{ heartbeatMs: number; pollMs: number } | null>(null)
  const active = branch !== LIVE_BRANCH_NAME && may('branch.edit')

  useEffect(() => {
    if (!active) return
    const key = `${branch}\0${path}`
    openHere.set(key, (openHere.get(key) ?? 0) + 1)
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | null = null
    let lastBeat = 0
    const url = branchApi(branch, '/presence')
    const query = `${url}?path=${encodeURIComponent(path)}`

    const tick = async () => {
      timer = null
      const beat = !timing.current || Date.now() - lastBeat >= timing.current.heartbeatMs
      try {
        const r = beat
          ? await api<PresenceAnswer>('PUT', url, { path })
          : await api<PresenceAnswer>('GET', query)
        if (beat) lastBeat = Date.now()
        if (stopped) return
        timing.current = { heartbeatMs: r.heartbeatMs, pollMs: r.pollMs }
        setOthers(r.others)
        setFailed(false)
      } catch {
        if (stopped) return
        setFailed(true)
      }
      if (!stopped) timer = setTimeout(() => void tick(), timing.current?.pollMs ?? CC_PRESENCE_RETRY_MS)
    }
    // A tab coming back to the front (its timers may have been slowed) beats at once.
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || stopped) return
      if (timer) clearTimeout(timer)
      lastBeat = 0
      void tick()
    }
    // Leaving the page (a link, a reload, closing the tab) unmounts nothing: say goodbye on the way out.
    // The answer is not waited for; its body is cancelled.
    const onHide = () => {
      if (stopped) return
      fetch(query, {
        method: 'DELETE',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      })
        .then((r) => r.body?.cancel())
        .catch(() => {})
    }
    // Back from the back-forward cache: here again at once.
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) onVisible()
    }
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('pagehide', onHide)
    window.addEventListener('pageshow', onShow)
    void tick()
    return () => {
      stopped = true
      if (timer) clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisible)
      window.removeEventListener('pagehide', onHide)
      window.removeEventListener('pageshow', onShow)
      const left = (openHere.get(key) ?? 1) - 1
      if (left > 0) openHere.set(key, left)
      else {
        openHere.delete(key)
        // Gone at once for the others (else at the expiry); a failure here changes nothing for me.
        api('DELETE', query).catch(() => {})
      }
    }
  }, [active, api, branch, path])

  if (!active) return null
  const noun = fileNoun(path)
  return (
    <div role="status" className="cc-presence" data-testid="presence">
      {others.length > 0 ? (
        <p className="cc-banner cc-presence-banner">
          {others.length === 1
            ? `${others[0].name} is also editing this ${noun} (since ${clockTime(others[0].since)}).`
            : `${names(others.map((o) => `${o.name} (since ${clockTime(o.since)})`))} are also editing this ${noun}.`}{' '}
          <span className="cc-presence-hint">
            Changes to different fields merge when you commit; if you both change the same field, you choose
            which to keep.
          </span>
        </p>
      ) : failed ? (
        <p className="muted cc-presence-failed">Could not check who else is editing this {noun}; retrying.</p>
      ) : null}
    </div>
  )
}
