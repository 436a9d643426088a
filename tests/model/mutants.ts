/** Broken copies of a machine, for checking that its generated tests catch a broken transition. */
import { type AnyStateMachine, createMachine } from 'xstate'

type Config = Record<string, unknown>
export interface Mutant {
  label: string
  machine: AnyStateMachine
}

/** Every copy of the machine with one transition's target changed to another top-level state. */
export function retargetedCopies(machine: AnyStateMachine): Mutant[] {
  const config = machine.config as Config & { states: Record<string, Config> }
  const names = Object.keys(config.states)
  const out: Mutant[] = []
  const clone = () => structuredCloneConfig(config)
  for (const state of names) {
    const at = (c: typeof config) => c.states[state]
    for (const [where, read] of transitionSlots(at(config))) {
      const list = toList(read)
      list.forEach((t, i) => {
        if (typeof t.target !== 'string') return
        // (An eventless transition to its own state would loop forever: not a mutant worth running.)
        const others = names.filter((n) => n !== t.target && `.${n}` !== t.target)
        for (const other of others.filter((n) => !(where === 'always' && n === state))) {
          const copy = clone()
          const slots = new Map(transitionSlots(at(copy)))
          const mutated = toList(slots.get(where))
          mutated[i] = { ...mutated[i], target: other }
          writeSlot(at(copy), where, mutated)
          out.push({
            label: `${state} —${where}${list.length > 1 ? ` #${i + 1}` : ''}→ ${other} (was ${t.target})`,
            machine: createMachine(copy as never, machine.implementations as never),
          })
        }
      })
    }
  }
  return out
}

type Transition = Config & { target?: unknown }
const toList = (v: unknown): Transition[] =>
  (Array.isArray(v) ? v : [v]).map((t) => (typeof t === 'string' ? { target: t } : { ...(t as Transition) }))

/** [slot name, value] of every transition list of a state config: on.X, after.N, always, invoke.onDone/onError. */
function transitionSlots(state: Config): [string, unknown][] {
  const out: [string, unknown][] = []
  for (const [k, v] of Object.entries((state.on as Config) ?? {})) out.push([`on.${k}`, v])
  for (const [k, v] of Object.entries((state.after as Config) ?? {})) out.push([`after.${k}`, v])
  if (state.always) out.push(['always', state.always])
  const invoke = state.invoke as Config | undefined
  if (invoke?.onDone) out.push(['invoke.onDone', invoke.onDone])
  if (invoke?.onError) out.push(['invoke.onError', invoke.onError])
  return out
}

function writeSlot(state: Config, where: string, value: Transition[]): void {
  const [group, key] = where.split('.')
  if (group === 'always') state.always = value
  else if (group === 'invoke') state.invoke = { ...(state.invoke as Config), [key]: value }
  else state[group] = { ...(state[group] as Config), [key]: value }
}

/** A copy deep enough to change targets: objects and arrays copied, functions kept. */
function structuredCloneConfig<T>(v: T): T {
  if (Array.isArray(v)) return v.map(structuredCloneConfig) as T
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, structuredCloneConfig(x)])) as T
  return v
}
