import type { FormValues } from '../runtime-contracts'

/** Key-value storage the machine writes buckets to (localStorage in the browser, a Map in tests). */
export interface BucketStorage {
  read(key: string): FormValues
  write(key: string, values: FormValues): void
}

/** What every bucket key starts with. */
export const BUCKET_KEY_PREFIX = 'funnelworks:form:'
const PREFIX = BUCKET_KEY_PREFIX
/** Answers per form version (spec point 3). */
export const formVersionBucketKey = (formVersion: string) => `${PREFIX}${formVersion}`
/** Answers shared across funnels (spec point 3). */
export const SHARED_BUCKET_KEY = `${PREFIX}shared`

/** Field names whose value differs between two value sets. */
export function changedFields(before: FormValues, after: FormValues): (keyof FormValues)[] {
  return (Object.keys(after) as (keyof FormValues)[]).filter((k) => before[k] !== after[k])
}

/** Reads both buckets; the form version's own answers win over shared ones. */
export function readBuckets(storage: BucketStorage, formVersion: string): FormValues {
  return { ...storage.read(SHARED_BUCKET_KEY), ...storage.read(formVersionBucketKey(formVersion)) }
}

/** Merges values into the form-version bucket and the shared bucket. */
export function mergeIntoBuckets(storage: BucketStorage, formVersion: string, values: FormValues): void {
  const key = formVersionBucketKey(formVersion)
  storage.write(key, { ...storage.read(key), ...values })
  storage.write(SHARED_BUCKET_KEY, { ...storage.read(SHARED_BUCKET_KEY), ...values })
}
