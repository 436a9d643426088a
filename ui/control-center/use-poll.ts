/**
 * A control-center read as an actor of engine/control-center/machines/run-poll-machine.ts: the
 * component renders `data`, `error` and `loading`; the machine keeps the timers (polling while the
 * data may change, backoff after failures) and drops stale answers.
 *
 *   const run = usePoll(() => api('GET', url).then((r) => ({ data: r.run, more: !isFinal(r.run.status) })))
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useRef } from 'react'
import { fromPromise } from 'xstate'
import { debounceMachine } from '../../engine/control-center/machines/debounce-machine'
import {
  type PollAnswer,
  type PollInput,
  pollMachine,
} from '../../engine/control-center/machines/run-poll-machine'

export interface Poll<T> {
  data: T | null
  /** The last read's failure (the data stays), or null. */
  error: string | null
  /** A read is in flight. */
  loading: boolean
  /** The read failed and is not tried again by itself (a plain GET). */
  failed: boolean
  /** Read now. */
  refresh(): void
  /** Take data an action answered with (e.g. a cancelled run). */
  set(data: T, more: boolean): void
}

/** Reads with `read` (its latest closure) as the machine says; a change of `key` reads again. */
export function usePoll<T>(
  read: () => Promise<{ data: T; more: boolean }>,
  input: PollInput,
  key?: unknown,
): Poll<T> {
  const latest = useRef(read)
  latest.current = read
  const actor = useActorRef(
    pollMachine.provide({ actors: { fetch: fromPromise<PollAnswer, unknown>(() => latest.current()) } }),
    { input },
  )
  const state = useSelector(actor, (s) => s.value as string)
  const data = useSelector(actor, (s) => s.context.data) as T | null
  const error = useSelector(actor, (s) => s.context.error)
  const first = useRef(true)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is what asks again
  useEffect(() => {
    if (first.current) first.current = false
    else actor.send({ type: 'REFRESH' })
  }, [actor, key])
  const stable = useRef<Pick<Poll<T>, 'refresh' | 'set'>>(null)
  stable.current ??= {
    refresh: () => actor.send({ type: 'REFRESH' }),
    set: (d, more) => actor.send({ type: 'SET', answer: { data: d, more } }),
  }
  return { ...stable.current, data, error, loading: state === 'fetching', failed: state === 'failed' }
}

export interface DebouncedRead<T> {
  /** The last answer (kept while a newer input waits or is read). */
  data: T | undefined
  error: string | null
}

/**
 * A read that follows typing, as an actor of engine/control-center/machines/debounce-machine.ts:
 * `input` is read once it has stayed the same (by `key`) for `quietMs`; an older input's answer never
 * replaces a newer one. For an article's preview:
 *
 *   const preview = useDebouncedRead((article) => api('POST', url, { article }), value, JSON.stringify(value), ARTICLE_PREVIEW_DEBOUNCE_MS)
 */
export function useDebouncedRead<I, T>(
  read: (input: I) => Promise<T>,
  input: I,
  key: string,
  quietMs: number,
): DebouncedRead<T> {
  const latest = useRef(read)
  latest.current = read
  const actor = useActorRef(
    debounceMachine.provide({ actors: { read: fromPromise(({ input }) => latest.current(input as I)) } }),
    { input: { quietMs } },
  )
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the input's identity
  useEffect(() => actor.send({ type: 'CHANGE', input }), [actor, key])
  return {
    data: useSelector(actor, (s) => s.context.output) as T | undefined,
    error: useSelector(actor, (s) => s.context.error),
  }
}
