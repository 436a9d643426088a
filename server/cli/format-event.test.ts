import { describe, expect, it } from 'vitest'
import { eventRow } from '../store/event-rows'
import { sampleEvent } from '../store/sample-event'
import { formatEvent } from './format-event'

describe('npm run events -- tail lines', () => {
  it('shows time, brand, kind, name, path, paid, session, bot and IP on one line', () => {
    const body = sampleEvent('evt-00000001', {
      brand: { id: 'm10', name: 'Medicare10' },
      bot: { bot: false },
      session: { id: 'sess-0001', paid: true, urlParams: {} },
      url: { full: 'http://m10.localhost/?gclid=x', path: '/', query: 'gclid=x' },
    })
    const row = {
      ...eventRow(body as never, new Date('2026-11-21T10:00:00.123Z'), '203.0.113.9'),
      brand_id: 'm10',
    }
    const line = formatEvent(row)
    expect(line).toMatch(
      /^2026-11-21 10:00:00Z {2}m10 +page +home-m10 +\/\?gclid=x +paid {2}sess sess-000 {2}human +203\.0\.113\.9$/,
    )
  })
})
