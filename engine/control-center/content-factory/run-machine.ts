/**
 * A content-factory run (CONTROL-CENTER §5, issue 16): queued → running → validating → succeeded |
 * failed | cancelled, with one automatic repair — the validation problems are sent back to the model
 * once. The generation and the validation are actors the server provides, so the machine is pure
 * and tested with fakes.
 */
import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'
import type { ArticleDraft, ChatMessage } from './prompt'
import { parseDraft, repairMessages } from './prompt'

export type RunStatus = 'queued' | 'running' | 'validating' | 'succeeded' | 'failed' | 'cancelled'

export interface GenerationOutput {
  text: string
  model: string
  promptTokens: number | null
  completionTokens: number | null
}

export interface ValidationOutput {
  /** Problems that make the draft unusable (schema, dry snapshot build). */
  errors: string[]
  /** Claims-lint hits: shown, not blocking. */
  warnings: string[]
}

export interface RunContext {
  messages: ChatMessage[]
  attempt: number
  output: string
  draft: ArticleDraft | null
  validation: ValidationOutput | null
  model: string | null
  promptTokens: number
  completionTokens: number
  error: string | null
}

export const MAX_REPAIRS = 1

/** A run's error when its server stops before the run ends (at shutdown, or found unfinished at start). */
export const SERVER_STOPPED_ERROR = 'the server stopped during the run; start it again'

export const runMachine = setup({
  types: {
    context: {} as RunContext,
    input: {} as { messages: ChatMessage[] },
    events: {} as { type: 'START' } | { type: 'CANCEL' } | { type: 'SERVER_STOP' },
  },
  actors: {
    generate: fromPromise<GenerationOutput, { messages: ChatMessage[] }>(async () => {
      throw new Error('generate is provided by the server')
    }),
    validate: fromPromise<ValidationOutput, { draft: ArticleDraft }>(async () => {
      throw new Error('validate is provided by the server')
    }),
  },
  guards: {
    parsed: ({ context }) => context.draft !== null,
    valid: ({ context }) => (context.validation?.errors.length ?? 1) === 0,
    canRepair: ({ context }) => context.attempt <= MAX_REPAIRS,
  },
}).createMachine({
  id: 'content-run',
  context: ({ input }) => ({
    messages: input.messages,
    attempt: 0,
    output: '',
    draft: null,
    validation: null,
    model: null,
    promptTokens: 0,
    completionTokens: 0,
    error: null,
  }),
  initial: 'queued',
  on: {
    CANCEL: { target: '.cancelled', actions: assign({ error: 'cancelled by staff' }) },
    // The server is shutting down: the run ends as failed, saying why, instead of staying "running".
    SERVER_STOP: { target: '.failed', actions: assign({ error: SERVER_STOPPED_ERROR }) },
  },
  states: {
    queued: { on: { START: 'running' } },
    running: {
      entry: assign({ attempt: ({ context }) => context.attempt + 1 }),
      invoke: {
        src: 'generate',
        input: ({ context }) => ({ messages: context.messages }),
        onDone: {
          target: 'parsing',
          actions: assign(({ context, event }) => ({
            output: event.output.text,
            model: event.output.model,
            promptTokens: context.promptTokens + (event.output.promptTokens ?? 0),
            completionTokens: context.completionTokens + (event.output.completionTokens ?? 0),
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error as Error).message }),
        },
      },
    },
    parsing: {
      entry: assign(({ context }) => {
        const r = parseDraft(context.output)
        return r.ok
          ? { draft: r.draft, validation: null }
          : { draft: null, validation: { errors: r.problems, warnings: [] } }
      }),
      always: [{ guard: 'parsed', target: 'validating' }, { target: 'deciding' }],
    },
    validating: {
      invoke: {
        src: 'validate',
        input: ({ context }) => ({ draft: context.draft! }),
        onDone: { target: 'deciding', actions: assign({ validation: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error as Error).message }),
        },
      },
    },
    deciding: {
      always: [
        { guard: 'valid', target: 'succeeded' },
        {
          guard: 'canRepair',
          target: 'running',
          actions: assign({
            messages: ({ context }) =>
              repairMessages(context.messages, context.output, context.validation!.errors),
          }),
        },
        {
          target: 'failed',
          actions: assign({
            error: ({ context }) =>
              `the answer was still unusable after a repair: ${context.validation!.errors.join('; ')}`,
          }),
        },
      ],
    },
    succeeded: { type: 'final' },
    failed: { type: 'final' },
    cancelled: { type: 'final' },
  },
})

/** The stored status of a machine state (parsing and deciding are moments of validating). */
export function statusOf(value: string): RunStatus {
  return value === 'parsing' || value === 'deciding' ? 'validating' : (value as RunStatus)
}
