/** Limits of the publish gates (CONTROL-CENTER §7; decision 0930). */

/**
 * Time one funnel's path enumeration may take, per gate, before the gate fails closed and refuses
 * the publish with a message saying so (STACK pitfall 9: path enumeration can blow up).
 */
export const GATE_TIME_BUDGET_MS = 3_000

/** Paths one funnel may have before the gate fails closed (the same reason as the time budget). */
export const GATE_MAX_PATHS = 5_000

/** Consent-gate results kept, by resolved funnel hash and page facts. */
export const GATE_CACHE_SIZE = 256

/** The window of the shared-step impact's visits per page and brand. */
export const IMPACT_VISITS_DAYS = 7

/** How long the real funnel machine may take to settle after one smoke-run move (its actions are instant there). */
export const SMOKE_SETTLE_MS = 1_000
