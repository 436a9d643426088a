import type { FormValues, FormValuesListener } from '../../engine/runtime-contracts'

/** The latest answers across funnels (the shared bucket) and who wants to hear of changes. */
export interface FormValuesHub {
  current(): FormValues
  /** Called by the funnel when values change; `changed` names the fields that did. */
  publish(values: FormValues, changed: readonly (keyof FormValues)[]): void
  subscribe(listener: FormValuesListener): () => void
}

export function createFormValues(): FormValuesHub {
  let values: FormValues = {}
  const listeners = new Set<FormValuesListener>()
  return {
    current: () => values,
    publish(next, changed) {
      values = { ...values, ...next }
      for (const l of listeners) l(values, changed)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
