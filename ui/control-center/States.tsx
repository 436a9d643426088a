import type { ReactNode } from 'react'
import type { Resource } from './use-resource'

export function Loading({ what }: { what: string }) {
  return (
    <p className="cc-state" role="status">
      Loading {what}…
    </p>
  )
}

export function ErrorState({ message, retry }: { message: string; retry?: () => void }) {
  return (
    <div className="cc-state cc-error" role="alert">
      <p>{message}</p>
      {retry && (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  )
}

/** A form's or dialog's error line, announced when it appears; nothing without a message. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null
  return (
    <p className="cc-form-error" role="alert">
      {message}
    </p>
  )
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="cc-state cc-empty">{children}</p>
}

/** Loading, error, or the data's view. */
export function WithResource<T>({
  resource,
  what,
  children,
}: {
  resource: Resource<T>
  what: string
  children: (data: T) => ReactNode
}) {
  if (resource.error) return <ErrorState message={resource.error} retry={resource.reload} />
  if (!resource.data) return <Loading what={what} />
  return <>{children(resource.data)}</>
}

export const shortSha = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '—')

/** A time in Los Angeles (the business's clock), e.g. "Nov 23, 2026, 10:05 AM PST". */
export function laTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  // dateStyle/timeStyle cannot be combined with timeZoneName: the fields one by one.
  return d.toLocaleString('en-US', {
    timeZone: 'America/Los_Angeles',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  })
}

/** A JSON value as one short line. */
export function jsonValue(v: unknown): string {
  if (v === undefined || v === null) return '(none)'
  const s = JSON.stringify(v)
  return s.length > 160 ? `${s.slice(0, 157)}…` : s
}

/** A region that may scroll sideways (wide tables): reachable by keyboard, named for screen readers. */
export function ScrollRegion({
  label,
  children,
  className,
}: {
  label: string
  children: ReactNode
  className?: string
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard
    <section className={className ?? 'cc-table-wrap'} tabIndex={0} aria-label={label}>
      {children}
    </section>
  )
}
