import { useActorRef, useSelector } from '@xstate/react'
import { useEffect } from 'react'
import { fromPromise } from 'xstate'
import {
  type PresenceAnswer as PresenceTiming,
  presenceMachine,
} from '../../engine/control-center/machines/presence-machine'
import { LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { PresenceAnswer } from '../../schemas/generated/cc-answers/presence'
import { branchApi, useApi } from './api'
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

/** The presence actor of one open editor: checks on the machine's pace, a goodbye when the page goes away or the last editor of the file here closes. */
function usePresence(branch: string, path: string) {
  const api = useApi()
  const url = branchApi(branch, '/presence')
  const query = `${url}?path=${encodeURIComponent(path)}`
  const actor = useActorRef(
    presenceMachine.provide({
      actors: {
        check: fromPromise<PresenceTiming, { beat: boolean }>(({ input }) =>
          input.beat ? api<PresenceAnswer>('PUT', url, { path }) : api<PresenceAnswer>('GET', query),
        ),
      },
      actions: {
        // Leaving the page unmounts nothing: say goodbye on the way out, not waiting; the body is cancelled.
        leave: () =>
          void fetch(query, {
            method: 'DELETE',
            keepalive: true,
            credentials: 'same-origin',
            headers: { 'Content-Type': 'application/json' },
            body: '{}',
          })
            .then((r) => r.body?.cancel())
            .catch(() => {}),
      },
    }),
    { input: {} },
  )
  useEffect(() => {
    const key = `${branch}\0${path}`
    openHere.set(key, (openHere.get(key) ?? 0) + 1)
    const onVisible = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'VISIBLE' })
    }
    const onHide = () => actor.send({ type: 'HIDDEN' })
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) actor.send({ type: 'VISIBLE' })
    }
    document.addEventListener('visibilitychange', onVisible)
    window.addEventListener('pagehide', onHide)
    window.addEventListener('pageshow', onShow)
    return () => {
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
  }, [actor, api, branch, path, query])
  return {
    others: useSelector(actor, (s) => s.context.others),
    failed: useSelector(actor, (s) => s.context.failed),
  }
}

/**
 * "Dana is also editing this page (since 2:14 pm)": while an editor of `path` is open on a branch, an
 * actor of the presence machine (engine/control-center/machines/presence-machine.ts) sends a heartbeat
 * and asks who else has the same file open there (CONTROL-CENTER §2.5 A, docs/decisions/0950), so two
 * people learn of each other before their commits meet. Says nothing on live, to people who cannot
 * edit, or when nobody else is there; a failing check says so quietly.
 */
export function Presence({ branch, path }: { branch: string; path: string }) {
  const { may } = useCc()
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  // Keyed by the file: another file is another actor.
  return <PresenceNote key={`${branch}\0${path}`} branch={branch} path={path} />
}

function PresenceNote({ branch, path }: { branch: string; path: string }) {
  const { others, failed } = usePresence(branch, path)
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
