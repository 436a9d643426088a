/**
 * Broken copies of a machine, for checking that its generated tests catch a broken machine (issue 38):
 * every single-fault copy — one transition sent to another state, one guard dropped, one action
 * dropped, one delay swapped for another — named as a line a person can read
 * (`draft: saved —on.EDIT→ saved (was unsaved)`).
 */
import { type AnyStateMachine, createMachine } from 'xstate'

type Config = Record<string, unknown>
type StateConfig = Config & { states?: Record<string, StateConfig> }

export type MutantKind = 'retarget' | 'drop-guard' | 'drop-action' | 'swap-delay'

export interface Mutant {
  kind: MutantKind
  label: string
  machine: AnyStateMachine
}

type Transition = Config & { target?: unknown; guard?: unknown; actions?: unknown }
const toList = (v: unknown): Transition[] =>
  (Array.isArray(v) ? v : [v]).map((t) => (typeof t === 'string' ? { target: t } : { ...(t as Transition) }))
const asArray = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/** Every state config with its path (`["editing", "saving"]`), the root first. */
function statesOf(config: StateConfig, path: string[] = []): { path: string[]; state: StateConfig }[] {
  return [
    { path, state: config },
    ...Object.entries(config.states ?? {}).flatMap(([name, s]) => statesOf(s, [...path, name])),
  ]
}

function stateAt(config: StateConfig, path: string[]): StateConfig {
  return path.reduce((s, name) => s.states![name], config)
}

const nameOf = (path: string[]) => (path.length ? path.join('.') : '(any state)')

/** [slot name, value] of every transition list of a state config: on.X, after.N, always, invoke.onDone/onError. */
function transitionSlots(state: Config): [string, unknown][] {
  const out: [string, unknown][] = []
  for (const [k, v] of Object.entries((state.on as Config) ?? {})) out.push([`on.${k}`, v])
  for (const [k, v] of Object.entries((state.after as Config) ?? {})) out.push([`after.${k}`, v])
  if (state.always) out.push(['always', state.always])
  for (const [i, inv] of asArray(state.invoke).entries()) {
    const invoke = inv as Config
    const at = asArray(state.invoke).length > 1 ? `invoke#${i + 1}` : 'invoke'
    if (invoke?.onDone) out.push([`${at}.onDone`, invoke.onDone])
    if (invoke?.onError) out.push([`${at}.onError`, invoke.onError])
  }
  return out
}

function writeSlot(state: Config, where: string, value: Transition[]): void {
  const dot = where.indexOf('.')
  const group = dot < 0 ? where : where.slice(0, dot)
  const key = where.slice(dot + 1)
  if (group === 'always') state.always = value
  else if (group.startsWith('invoke')) {
    const list = asArray(state.invoke)
    const i = group === 'invoke' ? 0 : Number(group.slice('invoke#'.length)) - 1
    list[i] = { ...(list[i] as Config), [key]: value }
    state.invoke = Array.isArray(state.invoke) ? list : list[0]
  } else state[group] = { ...(state[group] as Config), [key]: value }
}

/** A copy deep enough to change anything in the config: objects and arrays copied, functions kept. */
function cloneConfig<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneConfig) as T
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cloneConfig(x)])) as T
  return v
}

/** How an action or guard reads in a label: its type, or "inline". */
function implName(x: unknown): string {
  if (typeof x === 'string') return x
  if (x && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string')
    return (x as { type: string }).type
  if (typeof x === 'function' && x.name && !x.name.startsWith('bound ')) return x.name
  return 'inline'
}

const targetName = (t: unknown) => (typeof t === 'string' ? t.replace(/^\./, '') : '(stays)')

/** Every single-fault copy of the machine. */
export function mutantsOf(machine: AnyStateMachine): Mutant[] {
  const config = machine.config as StateConfig
  const out: Mutant[] = []
  const make = (kind: MutantKind, label: string, change: (copy: StateConfig) => void) => {
    const copy = cloneConfig(config)
    change(copy)
    out.push({ kind, label, machine: createMachine(copy as never, machine.implementations as never) })
  }
  const delays = new Set<string>()
  for (const { state } of statesOf(config))
    for (const k of Object.keys((state.after as Config) ?? {})) delays.add(k)

  for (const { path, state } of statesOf(config)) {
    const siblings = path.length ? Object.keys(stateAt(config, path.slice(0, -1)).states ?? {}) : []
    for (const [where, read] of transitionSlots(state)) {
      const list = toList(read)
      list.forEach((t, i) => {
        const head = `${nameOf(path)} —${where}${list.length > 1 ? ` #${i + 1}` : ''}`
        const change = (f: (t: Transition) => Transition) => (copy: StateConfig) => {
          const s = stateAt(copy, path)
          const mutated = toList(new Map(transitionSlots(s)).get(where))
          mutated[i] = f(mutated[i])
          writeSlot(s, where, mutated)
        }
        // Retarget: to another state among the source's siblings (an eventless transition to its own
        // state would loop forever: not a mutant worth running).
        if (typeof t.target === 'string' && !t.target.startsWith('#')) {
          const own = t.target.replace(/^\./, '')
          const among = t.target.startsWith('.')
            ? Object.keys(state.states ?? {}).map((n) => `.${n}`)
            : siblings
          const parent = t.target.startsWith('.') ? state : stateAt(config, path.slice(0, -1))
          for (const other of among.filter((n) => n !== t.target && n !== own)) {
            // An eventless transition to its own state, or to a state with eventless transitions of
            // its own, may loop forever within one step: not a mutant worth running.
            if (
              where === 'always' &&
              (other === path.at(-1) || parent.states?.[other.replace(/^\./, '')]?.always)
            )
              continue
            make(
              'retarget',
              `${head}→ ${targetName(other)} (was ${own})`,
              change((x) => ({ ...x, target: other })),
            )
          }
        }
        // An eventless transition that stays in its state, its guard dropped, is taken again and
        // again within one step (its actions change the context each time): not worth running either.
        if (t.guard !== undefined && !(where === 'always' && t.target === undefined))
          make(
            'drop-guard',
            `${head} [${implName(t.guard)}]→ ${targetName(t.target)}: guard dropped`,
            change(({ guard: _, ...x }) => x),
          )
        const actions = asArray(t.actions)
        for (const [j, a] of actions.entries())
          make(
            'drop-action',
            `${head}→ ${targetName(t.target)}: action ${implName(a)} dropped`,
            change((x) => ({ ...x, actions: actions.filter((_, k) => k !== j) })),
          )
      })
    }
    for (const kind of ['entry', 'exit'] as const) {
      const all = asArray(state[kind])
      for (const [j, a] of all.entries())
        make('drop-action', `${nameOf(path)} ${kind}: action ${implName(a)} dropped`, (copy) => {
          stateAt(copy, path)[kind] = all.filter((_, k) => k !== j)
        })
    }
    for (const d of Object.keys((state.after as Config) ?? {})) {
      const others = [...delays].filter((x) => x !== d)
      const swaps = others.length ? others : /^\d+$/.test(d) ? [String(Number(d) * 2)] : []
      for (const other of swaps)
        make('swap-delay', `${nameOf(path)} —after ${d}: after ${other} instead`, (copy) => {
          const s = stateAt(copy, path)
          const after = { ...(s.after as Config) }
          const moved = after[d]
          delete after[d]
          after[other] = moved
          s.after = after
        })
    }
  }
  return out
}

/** Every copy of the machine with one transition's target changed to another state (the lease test's). */
export function retargetedCopies(machine: AnyStateMachine): Mutant[] {
  return mutantsOf(machine).filter((m) => m.kind === 'retarget')
}
