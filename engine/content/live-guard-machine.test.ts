import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { createTestModel } from 'xstate/graph'
import { type LiveGuardEvent, liveGuardMachine } from './live-guard-machine'

const COMMITS = ['a', 'b', 'x', 'y'] as const
const refusal = (commit: string) => ({
  commit,
  errors: [{ file: 'definitions/site.json', line: 1, column: 3, pointer: '', message: 'invalid JSON' }],
  at: '2026-11-26T00:00:00.000Z',
})

/** Every event the server sends, with payloads drawn from a few commits (a function of the snapshot: STACK pitfall 9). */
function events(serving: string | null): LiveGuardEvent[] {
  return [
    ...COMMITS.flatMap((commit): LiveGuardEvent[] => [
      { type: 'SERVE', commit, verified: commit !== 'b' },
      { type: 'REF_SEEN', commit },
      // The server never refuses the commit it serves, nor falls back to a refused one.
      ...(commit === serving ? [] : [{ type: 'REFUSE', refused: refusal(commit) } as const]),
    ]),
    { type: 'FALL_BACK', commit: 'a' },
    { type: 'VERIFIED' },
  ]
}

/** Replays `path` on a real actor, checking after every step what the control center and /healthz rely on. */
function replay(path: LiveGuardEvent[]) {
  let reported = 0
  let restored = 0
  const actor = createActor(
    liveGuardMachine.provide({
      actions: {
        reportRefused: () => {
          reported++
        },
        reportRestored: () => {
          restored++
        },
      },
    }),
  ).start()
  let expectedReports = 0
  for (const event of path) {
    const before = actor.getSnapshot().context
    if (event.type === 'REFUSE' && event.refused.commit !== before.refused?.commit) expectedReports++
    actor.send(event)
    const s = actor.getSnapshot()
    // Degraded exactly while a refusal is remembered, and a refused commit is never the served one.
    expect(s.value === 'degraded').toBe(s.context.refused !== null)
    if (s.context.refused) expect(s.context.refused.commit).not.toBe(s.context.serving)
    // Each refused commit is reported once, however often it is seen again.
    expect(reported).toBe(expectedReports)
    if (event.type === 'SERVE') expect(s.context).toMatchObject({ serving: event.commit, refused: null })
    if (event.type === 'REF_SEEN' && event.commit === before.serving) expect(s.context.refused).toBeNull()
    if (event.type === 'FALL_BACK') {
      expect(s.context.refused).toEqual(before.refused)
      if (event.commit === before.refused?.commit) expect(s.context.serving).toBe(before.serving)
    }
  }
  return { snapshot: actor.getSnapshot(), reported, restored }
}

describe('live guard machine (docs/decisions/0610)', () => {
  it('holds its invariants on the shortest path to every reachable state', () => {
    const model = createTestModel(liveGuardMachine, {
      events: (snapshot) => events(snapshot.context.serving),
    })
    const paths = model.getShortestPaths()
    expect(paths.length).toBeGreaterThan(20)
    for (const path of paths)
      replay(
        path.steps.map((s) => s.event as LiveGuardEvent).filter((e) => e.type !== ('xstate.init' as string)),
      )
  })

  it('a bad push: refused once, the served commit stays; the ref back at it restores ok', () => {
    const r = replay([
      { type: 'SERVE', commit: 'a', verified: false },
      { type: 'REFUSE', refused: refusal('x') },
      { type: 'REF_SEEN', commit: 'x' },
      { type: 'REFUSE', refused: refusal('x') },
    ])
    expect(r.snapshot.value).toBe('degraded')
    expect(r.snapshot.context).toMatchObject({ serving: 'a', refused: { commit: 'x' } })
    expect(r.reported).toBe(1)
    const back = replay([
      { type: 'SERVE', commit: 'a', verified: true },
      { type: 'REFUSE', refused: refusal('x') },
      { type: 'REF_SEEN', commit: 'a' },
    ])
    expect(back.snapshot.value).toBe('ok')
    expect(back.restored).toBe(1)
  })

  it('falling back to the latest publication keeps the refusal and marks the served commit verified', () => {
    const r = replay([
      { type: 'SERVE', commit: 'b', verified: false },
      { type: 'REFUSE', refused: refusal('x') },
      { type: 'FALL_BACK', commit: 'a' },
    ])
    expect(r.snapshot.value).toBe('degraded')
    expect(r.snapshot.context).toMatchObject({ serving: 'a', verified: true, refused: { commit: 'x' } })
  })
})
