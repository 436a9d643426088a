/**
 * xstate's `setup()`, with the one thing our machines take from it: `.createMachine(config)`, typed
 * exactly as xstate types it. xstate's own `setup()` also returns every action builder (sendTo, emit,
 * log, enqueueActions, spawnChild…), which keeps all of them in each browser bundle with a machine,
 * used or not: about 1 KB gzip on every page (docs/decisions/0521). Import action builders from
 * `xstate` directly, as before.
 */
import { createMachine, type setup as xstateSetup } from 'xstate'

type Config = Parameters<typeof createMachine>[0]
type Implementations = NonNullable<Parameters<typeof createMachine>[1]>

export const setup = (({ schemas, actors, actions, guards, delays }: Parameters<typeof xstateSetup>[0]) => ({
  createMachine: (config: Config) =>
    createMachine({ ...config, schemas }, { actors, actions, guards, delays } as Implementations),
})) as unknown as typeof xstateSetup
