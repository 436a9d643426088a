/**
 * The control center's machines (engine/control-center/machines/) as models, in the style of
 * tests/model/machines.ts: graph, paths and replay come from tests/model/machine-model.ts, and
 * MACHINE_MODELS lists these too, so `npm run paths` and machines.model.test.ts cover them.
 */
import type { AnyMachineSnapshot } from 'xstate'
import { type MutationContext, mutationMachine } from '../../engine/control-center/machines/mutation-machine'
import type { MachineModel, StepFacts } from './machine-model'

const mctx = (s: AnyMachineSnapshot | null) => (s?.context ?? null) as MutationContext | null
const of = (f: StepFacts, name: string) => f.effects.filter((e) => e.name === name)

// --- one write (issue 28: busy, error, retry) ---------------------------------------------------

export const mutationModel: MachineModel = {
  name: 'cc-mutation',
  title: 'control-center write (engine/control-center/machines/mutation-machine.ts)',
  machine: mutationMachine,
  starts: [{ name: 'screen shown', input: () => undefined }],
  payloads: {
    RUN: () => [
      { type: 'RUN', input: 'first' },
      { type: 'RUN', input: 'second' },
    ],
  },
  describe: (e) => (e.type === 'RUN' ? `send "${(e as unknown as { input: string }).input}"` : undefined),
  outcomes: {
    perform: [
      { name: 'saved', output: () => ({ ok: true }) },
      { name: 'refused', error: 'conflict' },
    ],
  },
  effects: ['done', 'fail'],
  key: (s) => {
    const c = s.context as MutationContext
    return [c.input, Math.min(c.attempts, 2), c.failure?.message ?? null]
  },
  promises: [
    {
      says: 'a send while one is in flight is ignored (one request per click)',
      holds: (f) =>
        !(f.before?.value === 'running' && f.step?.kind === 'event' && f.step.event.type === 'RUN') ||
        (f.after.value === 'running' &&
          of(f, 'perform').length === 0 &&
          mctx(f.after)!.input === mctx(f.before)!.input),
    },
    {
      says: 'busy exactly while a request is in flight',
      holds: (f) =>
        (f.after.value === 'running') === (f.after.children && Object.keys(f.after.children).length > 0),
    },
    {
      says: 'a failure is shown with its message until retry, a new send or reset',
      holds: (f) => (f.after.value === 'failed') === (mctx(f.after)!.failure !== null),
    },
    {
      says: 'retry sends the same input again',
      holds: (f) =>
        !(f.step?.kind === 'event' && f.step.event.type === 'RETRY' && f.before?.value === 'failed') ||
        (f.after.value === 'running' &&
          mctx(f.after)!.input === mctx(f.before)!.input &&
          of(f, 'perform').every((e) => e.detail === mctx(f.before)!.input)),
    },
    {
      says: 'the component hears every outcome once: done on success, fail on failure',
      holds: (f) =>
        f.step?.kind !== 'done' && f.step?.kind !== 'error'
          ? of(f, 'done').length + of(f, 'fail').length === 0
          : of(f, f.step.kind === 'done' ? 'done' : 'fail').length === 1,
    },
  ],
}

export const CC_MACHINE_MODELS: MachineModel[] = [mutationModel]
