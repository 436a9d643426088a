/**
 * Model-based test of one read's life through the shared cat-file process (read-retry-machine.ts):
 * every simple path of the machine, checked against the rule of docs/decisions/0706 — a read fails
 * only when the process died on it CAT_FILE_MAX_DEATHS_PER_READ times or the repository closed, and
 * deaths of the reads ahead of it never count against it. (The real process: git-readers.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { getInitialSnapshot, getNextSnapshot } from 'xstate'
import { getShortestPaths, getSimplePaths } from 'xstate/graph'
import { CAT_FILE_MAX_DEATHS_PER_READ, type ReadRetryEvent, readRetryMachine } from './read-retry-machine'

const EVENTS: ReadRetryEvent[] = [
  { type: 'ANSWERED' },
  { type: 'DIED', current: true },
  { type: 'DIED', current: false },
  { type: 'CLOSED' },
]
const options = {
  events: EVENTS,
  serializeState: (s: { value: unknown; context: { deaths: number } }) => `${s.value}:${s.context.deaths}`,
}
const ends = (value: string) => ({ ...options, toState: (s: { value: unknown }) => s.value === value })

describe('one read through the shared cat-file process (model)', () => {
  const paths = [
    ...getSimplePaths(readRetryMachine, ends('answered') as never),
    ...getSimplePaths(readRetryMachine, ends('failed') as never),
  ]

  it('reaches every end: answered after up to one death on it, failed on the second or on close', () => {
    expect(paths.length).toBeGreaterThanOrEqual(4)
    const shortest = getShortestPaths(readRetryMachine, ends('failed') as never)
    expect(shortest.map((p) => p.steps.slice(1).map((s) => s.event.type))).toContainEqual(['CLOSED'])
  })

  // A death ahead of the read leaves its state as it was, so simple paths never take one: each path
  // runs as it is and with a death ahead before every step.
  const ahead: ReadRetryEvent = { type: 'DIED', current: false }
  const runs = paths.flatMap((path) => {
    const events = path.steps
      .map((s) => s.event as ReadRetryEvent)
      .filter((e) => !e.type.startsWith('xstate.'))
    return [events, events.flatMap((e) => [ahead, e])]
  })
  for (const events of runs) {
    const name = events.map((e) =>
      e.type === 'DIED' ? `died(${e.current ? 'on it' : 'ahead'})` : e.type.toLowerCase(),
    )
    it(`${name.join(' → ') || '(start)'}`, () => {
      let state = getInitialSnapshot(readRetryMachine)
      let deathsOnIt = 0
      for (const event of events) {
        state = getNextSnapshot(readRetryMachine, state, event)
        if (event.type === 'DIED' && event.current) deathsOnIt++
        // Deaths ahead of it never count; deaths on it always do.
        expect(state.context.deaths).toBe(deathsOnIt)
        const closed = event.type === 'CLOSED'
        const failed = closed || deathsOnIt >= CAT_FILE_MAX_DEATHS_PER_READ
        expect(state.value).toBe(failed ? 'failed' : event.type === 'ANSWERED' ? 'answered' : 'waiting')
      }
      expect(state.status).toBe('done')
    })
  }
})
