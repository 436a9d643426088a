import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'

/** The answer buckets in localStorage (docs/decisions/0202): the funnel writes them, the runtime reads them. */
export const localBuckets: BucketStorage = {
  read(key) {
    try {
      const raw = window.localStorage.getItem(key)
      const parsed: unknown = raw ? JSON.parse(raw) : {}
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FormValues) : {}
    } catch {
      // Storage may be disabled (private mode) or hold garbage: the funnel works without prefill.
      return {}
    }
  },
  write(key, values) {
    try {
      window.localStorage.setItem(key, JSON.stringify(values))
    } catch {
      // Full or disabled storage must not stop the visitor.
    }
  },
}
