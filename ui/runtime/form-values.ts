import type { FormValues, FormValuesListener } from '../../engine/runtime-contracts'

/**
 * The latest answers across funnels (the shared bucket) and who wants to hear of changes. It starts
 * with the answers stored before (`initial`), so every page of the session — the thank-you page
 * too — knows everything the visitor entered (the phone lease's payload needs it, issue 18).
 */
export interface FormValuesHub {
  current(): FormValues
  /** Called by the funnel when values change; `changed` names the fields that did. */
  publish(values: FormValues, changed: readonly (keyof FormValues)[]): void
  subscribe(listener: FormValuesListener): () => void
}

export function createFormValues(initial: FormValues = {}): FormValuesHub {
  let values: FormValues = { ...initial }
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
