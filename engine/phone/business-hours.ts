import {
  AFFILIATE_CLOSED_WEEKDAY,
  AFFILIATE_UTM_MEDIUM,
  BUSINESS_HOURS,
  BUSINESS_TIME_ZONE,
} from '../constants'
import { wallClock } from '../time/wall-clock'

/**
 * Whether phone lines are open (spec point 4), in Los Angeles time whatever the visitor's zone:
 * Monday–Friday 05:00 to before 17:00, Saturday 06:00 to before 15:00 unless utm_medium is `aff`,
 * Sunday closed. Tested against luxon (business-hours.test.ts, wall-clock.test.ts).
 */
export function isWithinBusinessHours(at: Date | number, utmMedium?: string | null): boolean {
  const la = wallClock(at, BUSINESS_TIME_ZONE)
  const hours = BUSINESS_HOURS[la.weekday]
  if (!hours) return false
  if (la.weekday === AFFILIATE_CLOSED_WEEKDAY && utmMedium === AFFILIATE_UTM_MEDIUM) return false
  return la.hour >= hours[0] && la.hour < hours[1]
}
