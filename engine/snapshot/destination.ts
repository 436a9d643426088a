/**
 * Where a funnel may finish or a call to action may point (spec point 8: navigating to an external URL
 * without explicit permission is an error; unsafe URL protocols are refused).
 */
export const UNSAFE_PROTOCOL_MESSAGE = 'unsafe URL protocol'
export const EXTERNAL_NOT_ALLOWED_MESSAGE =
  'external navigation is not allowed without allowExternalDestination'

/** Returns a problem description, or undefined when the destination is acceptable. */
export function checkDestination(destination: string, allowExternal: boolean): string | undefined {
  const d = destination.trim()
  if (d === '') return 'destination must not be empty'
  if (d.startsWith('/') && !d.startsWith('//') && !d.startsWith('/\\')) return undefined
  const protocol = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(d)?.[1]?.toLowerCase()
  if (!protocol) {
    if (d.startsWith('//'))
      return `destination "${d}" is protocol-relative; use a relative path starting with a single / or an https URL`
    return `destination "${d}" must be a relative path starting with /`
  }
  if (protocol !== 'https' && protocol !== 'http')
    return `${UNSAFE_PROTOCOL_MESSAGE} "${protocol}:" in destination`
  if (protocol === 'http') return `destination "${d}" must use https`
  if (!allowExternal) return `${EXTERNAL_NOT_ALLOWED_MESSAGE} ("${d}")`
  return undefined
}

/** Resolves a destination for navigation in the browser; throws on anything not allowed. */
export function safeNavigationTarget(destination: string, allowExternal: boolean): string {
  const problem = checkDestination(destination, allowExternal)
  if (problem) throw new Error(problem)
  return destination.trim()
}
