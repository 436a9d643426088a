/**
 * The wall-clock weekday and time of an instant in a named IANA zone, from the platform's Intl data.
 * The browser bundle uses this instead of luxon (docs/decisions/0507): luxon is ~22 KB gzip, a fifth
 * of a landing page's JavaScript budget, and business hours only need weekday and hour. Luxon stays
 * the oracle: wall-clock.test.ts checks this against it every quarter hour across DST changes.
 */

export interface WallClock {
  /** ISO weekday, 1 = Monday … 7 = Sunday (luxon's numbering). */
  weekday: number
  hour: number
  minute: number
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }
const formats = new Map<string, Intl.DateTimeFormat>()

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone)
  if (!f) {
    // en-US with h23: weekday names and a 0–23 hour whatever the visitor's locale.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
    formats.set(zone, f)
  }
  return f
}

export function wallClock(at: Date | number, zone: string): WallClock {
  const parts = formatFor(zone).formatToParts(typeof at === 'number' ? at : at.getTime())
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? ''
  const weekday = WEEKDAYS[part('weekday')]
  const hour = Number(part('hour'))
  const minute = Number(part('minute'))
  if (!weekday || !Number.isInteger(hour) || !Number.isInteger(minute))
    throw new Error(`Cannot read the time in ${zone}: ${JSON.stringify(parts)}`)
  return { weekday, hour, minute }
}
