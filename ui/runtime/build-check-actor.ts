/** The build-check machine with real effects; loaded lazily by build-check.ts. */
import { createActor, fromPromise } from 'xstate'
import { buildCheckMachine } from '../../engine/build-check/build-check-machine'
import { BUILD_LATEST_PATH, BUILD_META_PREFIX, RELOAD_GUARD_STORAGE_KEY } from '../../engine/constants'

/** What the facade (build-check.ts) tells the running machine. */
export interface BuildCheckPort {
  check(): void
  chunkFailed(): void
  /** true when the navigation became a full page load. */
  navigate(url: string): boolean
}

function readGuard(): number | null {
  try {
    const v = Number(sessionStorage.getItem(RELOAD_GUARD_STORAGE_KEY))
    return Number.isFinite(v) && v > 0 ? v : null
  } catch {
    return null
  }
}

async function fetchJson(url: string): Promise<unknown> {
  const res = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } })
  if (!res.ok) {
    await res.body?.cancel()
    throw new Error(`${url} answered ${res.status}`)
  }
  return res.json()
}

export function runBuildCheck(buildId: string): BuildCheckPort {
  const machine = buildCheckMachine.provide({
    actors: {
      fetchLatest: fromPromise(async () => {
        const latest = (await fetchJson(`${BUILD_LATEST_PATH}?t=${Date.now()}`)) as { id?: unknown }
        if (typeof latest.id !== 'string') throw new Error('latest.json has no id')
        // The meta file names the new build's routes; fetching it also proves the build is served.
        if (latest.id !== buildId) await fetchJson(`${BUILD_META_PREFIX}${latest.id}.json`)
        return { id: latest.id }
      }),
    },
    actions: {
      reload: (_, { url }) => {
        try {
          sessionStorage.setItem(RELOAD_GUARD_STORAGE_KEY, String(Date.now()))
        } catch {}
        location.assign(url)
      },
    },
  })
  const actor = createActor(machine, { input: { buildId, lastReloadAt: readGuard() } }).start()
  // Visible state for operators (devtools) and tests: the check is running.
  document.documentElement.dataset.buildCheck = 'running'
  return {
    check: () => actor.send({ type: 'CHECK' }),
    chunkFailed: () => actor.send({ type: 'CHUNK_FAILED' }),
    navigate: (url) => {
      actor.send({ type: 'NAVIGATE', url })
      return actor.getSnapshot().status === 'done'
    },
  }
}
