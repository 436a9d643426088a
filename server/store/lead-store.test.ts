import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentVersion } from '../../engine/consent/consent-for-page'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import { formatLead } from '../cli/format-lead'
import { loadConfig } from '../config'
import { sha256Hex } from '../consent/consent-versions'
import { sampleConsentRecord } from '../consent/sample-consent'
import { SnapshotStore } from '../content/snapshot-store'
import { insertConsentRecords, registerConsentVersions } from './consent-store'
import { eventRow } from './event-rows'
import { insertEvents } from './event-store'
import { phoneDigits } from './lead-keys'
import { leadStory, recordMarketplaceCall } from './lead-store'
import { openStore, type Store } from './open-store'
import { sampleEvent } from './sample-event'

describe('the lead record', () => {
  let store: Store
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
  const snapshot = SnapshotStore.load(config.definitionsDir, config.projectRoot).current
  const session = 'sess-lead-0001'
  const anon = 'anon-lead-0001'

  const event = (
    id: string,
    t: string,
    extra: Partial<AnalyticsEvent> & Record<string, unknown>,
    props = {},
  ) => {
    const base = sampleEvent(id, { revision: snapshot.id, ...props })
    return { ...base, sessionId: session, anonymousId: anon, timestamp: t, ...extra } as AnalyticsEvent
  }

  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: null })
    const now = new Date()
    await insertEvents(store.db, [
      eventRow(event('ev-lead-0001', '2026-11-23T10:00:00.000Z', { name: 'quiz-otc' }), now, '203.0.113.5'),
      eventRow(
        event(
          'ev-lead-0002',
          '2026-11-23T10:00:05.000Z',
          { type: 'track', event: 'formStepSubmitted', name: undefined, category: undefined },
          {
            formVersion: 'quiz-otc-1',
            stepName: 'contact',
            stepNumber: 5,
            data: { phone: '(555) 201-3344' },
          },
        ),
        now,
        '203.0.113.5',
      ),
    ])
    const record = { ...sampleConsentRecord(snapshot), sessionId: session, anonymousId: anon }
    const doc = snapshot.documents.consent.get(record.consent.id)!
    await registerConsentVersions(store.db, [consentVersion(doc)], snapshot.id, sha256Hex)
    await insertConsentRecords(store.db, [
      {
        id: record.id,
        received_at: '2026-11-23T10:00:05.500Z',
        session_id: session,
        anonymous_id: anon,
        user_id: null,
        brand_id: record.brand,
        page_key: record.pageKey,
        form_version: record.formVersion,
        step_name: record.stepName,
        step_number: record.stepNumber,
        consent_id: record.consent.id,
        version: record.consent.version,
        text: record.consent.text,
        text_sha256: record.consent.sha256,
        seller: record.consent.seller,
        button_label: record.consent.buttonLabel,
        fields: record.fields,
        url: record.url,
        ip: '203.0.113.5',
        user_agent: 'UA',
        snapshot_id: snapshot.id,
        content_commit: 'abc1234',
        experiment: null,
        body: record,
      },
    ])
    await recordMarketplaceCall(store.db, {
      kind: 'get-phone',
      user_id: 'user-0001',
      session_id: session,
      page_url: 'http://m10.localhost/quiz',
      ok: true,
      status: 200,
      phone: '+18005550100',
      expires_at: '2026-11-23T10:05:00.000Z',
    })
  }, 60_000)
  afterAll(() => store?.close())

  it('finds a lead by session id, anonymous id or the phone typed, with every part in time order', async () => {
    for (const [key, by] of [
      [session, 'session'],
      [anon, 'visitor'],
      ['555-201-3344', 'phone'],
      ['+1 (555) 201-3344', 'phone'],
    ] as const) {
      const story = await leadStory(store.db, key)
      expect(story.matchedBy).toBe(by)
      expect(story.entries.map((e) => e.kind)).toEqual(['event', 'event', 'consent', 'marketplace'])
      expect(story.revisions).toEqual([{ snapshotId: snapshot.id, commit: 'abc1234' }])
    }
    expect((await leadStory(store.db, '555-999-0000')).matchedBy).toBeNull()
    expect(phoneDigits('sess-0001')).toBeNull()
  })

  it('prints the story for a reviewer: revision, consent text and hash, the number shown', async () => {
    const text = formatLead(await leadStory(store.db, session))
    expect(text).toContain(`rev ${snapshot.id}`)
    expect(text).toContain('CONSENT GIVEN')
    expect(text).toContain(`sha256 ${sha256Hex(sampleConsentRecord(snapshot).consent.text)}`)
    expect(text).toContain('Number shown: +18005550100')
    expect(text.indexOf('page seen')).toBeLessThan(text.indexOf('step submitted'))
    expect(text.indexOf('step submitted')).toBeLessThan(text.indexOf('CONSENT GIVEN'))
  })
})
