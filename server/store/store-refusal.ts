/**
 * Tells a value the database refused (a data exception, SQLSTATE class 22: out of range, bad
 * encoding…) from a store that is down. The first is the sender's fault and becomes a 400; the
 * second stays a 5xx.
 */
export function storeRefusal(e: unknown): string | null {
  const code = (e as { code?: unknown })?.code
  if (typeof code !== 'string' || !code.startsWith('22')) return null
  return (e as Error).message || `the store refused a value (SQLSTATE ${code})`
}
