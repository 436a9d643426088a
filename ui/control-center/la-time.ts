/** Los Angeles wall-clock time ↔ instants (scheduled publishing is entered in LA time). */
const LA = 'America/Los_Angeles'

function laOffsetMs(t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: LA,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(t))
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - t
}

/** `2026-11-24T09:30` in Los Angeles → ISO instant. */
export function laLocalToIso(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null
  const asUtc = Date.parse(`${local}:00Z`)
  if (Number.isNaN(asUtc)) return null
  let t = asUtc - laOffsetMs(asUtc)
  t = asUtc - laOffsetMs(t)
  return new Date(t).toISOString()
}

/** An instant → `YYYY-MM-DDTHH:mm` in Los Angeles (for a datetime-local input). */
export function isoToLaLocal(t: number): string {
  return new Date(t + laOffsetMs(t)).toISOString().slice(0, 16)
}
