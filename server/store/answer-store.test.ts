import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FUNNEL_ANSWERS_TTL_MS } from '../../engine/constants'
import {
  formVersionBucketKey,
  mergeIntoBuckets,
  readBuckets,
  SHARED_BUCKET_KEY,
} from '../../engine/funnel/buckets'
import { loadBuckets } from './answer-store'
import type { Store } from './open-store'
import { DB_KINDS, openTestStore } from './test-databases'

describe.each(DB_KINDS)('server-side answer buckets on %s (decision 0216)', (kind) => {
  let store: Store
  beforeAll(async () => {
    store = await openTestStore(kind)
  }, 60_000)
  afterAll(() => store?.close())

  it('keeps both buckets per visitor with the browser merge rules, and forgets them after the TTL', async () => {
    const first = await loadBuckets(store.db, 'anon-1')
    mergeIntoBuckets(first, 'v1', { zipcode: '90210' })
    await first.save(store.db)
    const second = await loadBuckets(store.db, 'anon-1')
    mergeIntoBuckets(second, 'v2', { haveMedicare: true })
    await second.save(store.db)

    const again = await loadBuckets(store.db, 'anon-1')
    expect(again.read(SHARED_BUCKET_KEY)).toEqual({ zipcode: '90210', haveMedicare: true })
    expect(again.read(formVersionBucketKey('v1'))).toEqual({ zipcode: '90210' })
    // Another form version starts from the shared answers, as in the browser.
    expect(readBuckets(again, 'v3')).toEqual({ zipcode: '90210', haveMedicare: true })
    expect((await loadBuckets(store.db, 'anon-2')).read(SHARED_BUCKET_KEY)).toEqual({})
    const later = await loadBuckets(store.db, 'anon-1', Date.now() + FUNNEL_ANSWERS_TTL_MS + 60_000)
    expect(later.read(SHARED_BUCKET_KEY)).toEqual({})
  })
})
