/** Web storage that never throws (private modes, full quota, blocked cookies). */
export function readJson<T>(storage: () => Storage, key: string): T | null {
  try {
    const text = storage().getItem(key)
    return text ? (JSON.parse(text) as T) : null
  } catch {
    return null
  }
}

export function writeJson(storage: () => Storage, key: string, value: unknown): void {
  try {
    storage().setItem(key, JSON.stringify(value))
  } catch {}
}

export function readText(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key)
  } catch {
    return null
  }
}

export function writeText(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value)
  } catch {}
}

export const local = () => window.localStorage
export const perTab = () => window.sessionStorage

/** Storage keys. `anonymousId` and `anonIdLinked` keep the spec's names (spec point 4). */
export const KEYS = {
  userId: 'fw.userId',
  anonymousId: 'anonymousId',
  anonIdLinked: 'anonIdLinked',
  visitor: 'fw.visitor',
  /** `updatedAt` of the last record the server acknowledged. */
  visitorSynced: 'fw.visitorSynced',
  lastActivity: 'fw.lastActivity',
  eventQueue: 'fw.eventQueue',
} as const
