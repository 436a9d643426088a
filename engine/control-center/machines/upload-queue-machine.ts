import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

/** One file in the queue, as the upload list shows it. */
export interface QueuedUpload {
  key: number
  name: string
  size: number
  /** 0…1 of the bytes sent. */
  progress: number
  state: 'waiting' | 'uploading' | 'encoding' | 'done' | 'failed'
  error?: string
  /** What the server answered (the stored image). */
  result?: unknown
  /** The file itself, for the `upload` actor. */
  file: unknown
}

export interface UploadQueueContext {
  /** In the order they were added. */
  items: QueuedUpload[]
  nextKey: number
}

export type UploadQueueEvent =
  | { type: 'ADD'; files: { file: unknown; name: string; size: number }[] }
  /** The upload in flight has sent this fraction of its bytes (1: the server is converting it). */
  | { type: 'PROGRESS'; key: number; fraction: number }

const patch = (items: QueuedUpload[], key: number, p: Partial<QueuedUpload>) =>
  items.map((u) => (u.key === key ? { ...u, ...p } : u))
const current = (c: UploadQueueContext) =>
  c.items.find((u) => u.state === 'uploading' || u.state === 'encoding')
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * The images screen's upload queue (CONTROL-CENTER §1.4 `/images`): files dropped or chosen are sent
 * one at a time, in the order they were added (the server re-encodes each, and the machine is small),
 * each with its progress, its "converting" step and its own error; a failure does not stop the
 * others, and files added meanwhile join the queue. The send is the provided `upload` actor (its
 * progress comes back as PROGRESS) and `uploaded` tells the screen: the machine does no I/O.
 */
export const uploadQueueMachine = setup({
  types: {
    context: {} as UploadQueueContext,
    events: {} as UploadQueueEvent,
  },
  actors: {
    upload: fromPromise<unknown, { key: number; file: unknown }>(async () => {
      throw new Error('uploadQueueMachine: provide the upload actor')
    }),
  },
  guards: {
    waiting: ({ context }) => context.items.some((u) => u.state === 'waiting'),
  },
  actions: {
    enqueue: assign(({ context, event }) => {
      const files = (event as Extract<UploadQueueEvent, { type: 'ADD' }>).files
      return {
        items: [
          ...context.items,
          ...files.map((f, i) => ({
            key: context.nextKey + i,
            name: f.name,
            size: f.size,
            progress: 0,
            state: 'waiting' as const,
            file: f.file,
          })),
        ],
        nextKey: context.nextKey + files.length,
      }
    }),
    uploaded: (_, _params: { key: number; result: unknown }) => {},
  },
}).createMachine({
  id: 'uploadQueue',
  context: { items: [], nextKey: 1 },
  initial: 'idle',
  on: { ADD: { target: '.next', actions: 'enqueue' } },
  states: {
    idle: {},
    next: {
      always: [{ guard: 'waiting', target: 'sending' }, { target: 'idle' }],
    },
    sending: {
      entry: assign({
        items: ({ context }) => {
          const key = context.items.find((u) => u.state === 'waiting')!.key
          return patch(context.items, key, { state: 'uploading' })
        },
      }),
      on: {
        // Another file joins the queue; the one in flight goes on.
        ADD: { actions: 'enqueue' },
        // Only the upload in flight moves (a late report of an earlier one changes nothing).
        PROGRESS: {
          guard: ({ context, event }) => current(context)?.key === event.key,
          actions: assign({
            items: ({ context, event }) =>
              patch(context.items, event.key, {
                progress: event.fraction,
                state: event.fraction >= 1 ? 'encoding' : 'uploading',
              }),
          }),
        },
      },
      invoke: {
        src: 'upload',
        input: ({ context }) => {
          const u = current(context)!
          return { key: u.key, file: u.file }
        },
        onDone: {
          target: 'next',
          actions: [
            {
              type: 'uploaded',
              params: ({ context, event }) => ({ key: current(context)!.key, result: event.output }),
            },
            assign({
              items: ({ context, event }) =>
                patch(context.items, current(context)!.key, {
                  state: 'done',
                  progress: 1,
                  result: event.output,
                }),
            }),
          ],
        },
        onError: {
          target: 'next',
          actions: assign({
            items: ({ context, event }) =>
              patch(context.items, current(context)!.key, { state: 'failed', error: messageOf(event.error) }),
          }),
        },
      },
    },
  },
})
