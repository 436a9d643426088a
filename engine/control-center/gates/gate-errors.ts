/** Gate findings in the validation's `file line pointer message` format (CONTROL-CENTER §7). */
import type { DefinitionError } from '../../snapshot/types'

/** Finds where a pointer sits in a file; without it, gate errors carry line 0 (no line known). */
export type Locate = (file: string, pointer: string) => { line: number; column: number } | undefined

export function gateError(file: string, pointer: string, message: string, locate?: Locate): DefinitionError {
  const at = locate?.(file, pointer) ?? { line: 0, column: 0 }
  return { file, line: at.line, column: at.column, pointer, message }
}

/**
 * A gate that ran out of its time budget or path cap: it fails closed, and only that kind of refusal
 * may be overridden, by an admin, with a reason that is audited (CONTROL-CENTER §7 risks).
 */
export interface GateBudgetFailure extends DefinitionError {
  budget: true
}

export function gateBudgetError(
  file: string,
  pointer: string,
  message: string,
  locate?: Locate,
): GateBudgetFailure {
  return { ...gateError(file, pointer, message, locate), budget: true }
}

export const isGateBudgetFailure = (e: DefinitionError): e is GateBudgetFailure =>
  (e as Partial<GateBudgetFailure>).budget === true

/** A small least-recently-used map: the gates' results by resolved funnel hash. */
export class LruCache<V> {
  readonly #entries = new Map<string, V>()
  constructor(readonly capacity: number) {}
  get(key: string): V | undefined {
    const v = this.#entries.get(key)
    if (v === undefined) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, v)
    return v
  }
  set(key: string, value: V): void {
    this.#entries.delete(key)
    this.#entries.set(key, value)
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!)
  }
  get size(): number {
    return this.#entries.size
  }
}
