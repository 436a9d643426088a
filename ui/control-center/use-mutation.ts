/**
 * A control-center write as an actor of engine/control-center/machines/mutation-machine.ts: the
 * component renders `busy` and `error` and offers `retry`; it keeps no busy/error state of its own.
 *
 *   const save = useMutation((title: string) => api('POST', url, { title }), {
 *     onDone: (answer) => onSaved(answer),
 *   })
 *   <button disabled={save.busy} onClick={() => save.run(title)}>Save</button>
 *   {save.error && <ErrorBanner message={save.error} onRetry={save.retry} />}
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useRef } from 'react'
import { fromPromise } from 'xstate'
import { type MutationFailure, mutationMachine } from '../../engine/control-center/machines/mutation-machine'
import { ApiError } from './api'

export interface MutationOptions<I, O> {
  onDone?: (output: O, input: I) => void
  onError?: (failure: MutationFailure, input: I) => void
}

export interface Mutation<I, O> {
  /** Send the request (ignored while one is in flight). */
  run: (input: I) => void
  /** Send the failed request again. */
  retry: () => void
  /** Forget the outcome (e.g. when its dialog closes). */
  reset: () => void
  busy: boolean
  succeeded: boolean
  /** The failure's message, or null. */
  error: string | null
  /** The failure as the API answered it (status, field errors, conflicts), when it was an API error. */
  apiError: ApiError | null
  output: O | undefined
}

export function useMutation<I = void, O = unknown>(
  perform: (input: I) => Promise<O>,
  options: MutationOptions<I, O> = {},
): Mutation<I, O> {
  // The latest closures: the actor lives as long as the component, the callbacks change each render.
  const latest = useRef({ perform, options })
  latest.current = { perform, options }
  const actor = useActorRef(
    mutationMachine.provide({
      actors: { perform: fromPromise(({ input }) => latest.current.perform(input as I)) },
      actions: {
        done: (_, p) => latest.current.options.onDone?.(p.output as O, p.input as I),
        fail: (_, p) => latest.current.options.onError?.(p.failure, p.input as I),
      },
    }),
  )
  const state = useSelector(actor, (s) => s.value as 'idle' | 'running' | 'succeeded' | 'failed')
  const failure = useSelector(actor, (s) => s.context.failure)
  const output = useSelector(actor, (s) => s.context.output) as O | undefined
  const stable = useRef<Pick<Mutation<I, O>, 'run' | 'retry' | 'reset'>>(null)
  stable.current ??= {
    run: (input) => actor.send({ type: 'RUN', input }),
    retry: () => actor.send({ type: 'RETRY' }),
    reset: () => actor.send({ type: 'RESET' }),
  }
  return {
    ...stable.current,
    busy: state === 'running',
    succeeded: state === 'succeeded',
    error: failure?.message ?? null,
    apiError: failure?.error instanceof ApiError ? failure.error : null,
    output,
  }
}
