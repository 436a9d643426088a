/**
 * Visits per page and brand over the last days, from the events store (the shared-step impact of
 * CONTROL-CENTER §7 item 3). A visit is a session that viewed the page: a funnel page sends a page
 * event per step, so counting events would count a visitor once per step (decision 0930). Bots (the
 * generated `bot` column, migration 0007) are left out.
 */
import { IMPACT_VISITS_DAYS } from '../../engine/control-center/gates/gate-constants'
import type { Queryable } from './db'

export interface PageVisits {
  page: string
  /** The brand the visit was on; null for events without one. */
  brand: string | null
  visits: number
}

const DAY_MS = 86_400_000

export async function pageVisits(
  db: Queryable,
  pages: readonly string[],
  now: Date = new Date(),
  days = IMPACT_VISITS_DAYS,
): Promise<PageVisits[]> {
  if (pages.length === 0) return []
  const r = await db.query<{ page: string; brand: string | null; visits: number | string }>(
    `SELECT name AS page, brand_id AS brand, count(DISTINCT session_id) AS visits
       FROM events
      WHERE type = 'page' AND NOT bot AND name = ANY($1::text[]) AND received_at >= $2 AND received_at <= $3
      GROUP BY name, brand_id
      ORDER BY name, brand_id`,
    [pages, new Date(now.getTime() - days * DAY_MS).toISOString(), now.toISOString()],
  )
  return r.rows.map((row) => ({ page: row.page, brand: row.brand, visits: Number(row.visits) }))
}
