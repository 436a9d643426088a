import type { StoredEvent } from '../store/event-store'

const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n))

/** One line per event, for a person: time, brand, kind, name, path, paid, session, bot, IP. */
export function formatEvent(e: StoredEvent): string {
  const p = e.body.properties
  const time = e.received_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
  const bot = p.bot == null ? 'bot:?' : p.bot.bot ? `bot:${p.bot.kind}` : 'human'
  const query = p.url?.query ? `?${p.url.query}` : ''
  return [
    time,
    pad(e.brand_id ?? '-', 5),
    pad(e.type === 'page' ? 'page' : 'track', 5),
    pad(e.name, 24),
    pad(`${p.url?.path ?? ''}${query}`, 40),
    e.paid ? 'paid' : '    ',
    `sess ${e.session_id.slice(0, 8)}`,
    pad(bot, 22),
    e.ip ?? '-',
  ].join('  ')
}
