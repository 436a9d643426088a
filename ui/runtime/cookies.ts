/** A cookie the page may read; null when absent. */
export function readCookie(name: string): string | null {
  try {
    for (const part of document.cookie.split(';')) {
      const eq = part.indexOf('=')
      if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
    }
  } catch {}
  return null
}
