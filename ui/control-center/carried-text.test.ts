import { describe, expect, it } from 'vitest'
import { unsavedKey } from './CommitDialog'
import { carryTo, dropPending, pendingKey, takeCarried } from './carried-text'

/** A Storage over a Map (the browser's localStorage is not in Node). */
function memoryStorage(): Storage {
  const m = new Map<string, string>()
  return {
    get length() {
      return m.size
    },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
  }
}

const PAGE = 'definitions/pages/grocery.json'

describe('text typed on live (issue 37)', () => {
  it('goes to the branch created to save it, once, and to no other branch', () => {
    const s = memoryStorage()
    s.setItem(pendingKey(PAGE), 'typed on live')
    carryTo('keep-typed', s)
    expect(takeCarried('spring-promo', PAGE, s)).toBeNull()
    expect(takeCarried('keep-typed', PAGE, s)).toBe('typed on live')
    expect(takeCarried('keep-typed', PAGE, s)).toBeNull()
    expect(s.length).toBe(0)
  })

  it('is dropped when the person cancels; a branch named "carry" never meets it', () => {
    const s = memoryStorage()
    s.setItem(pendingKey(PAGE), 'typed on live')
    s.setItem(unsavedKey('spring-promo', PAGE), 'unsaved on spring-promo')
    expect(s.getItem(unsavedKey('carry', PAGE))).toBeNull()
    dropPending(s)
    carryTo('later', s)
    expect(takeCarried('later', PAGE, s)).toBeNull()
    // Other branches' unsaved text is not touched.
    expect(s.getItem(unsavedKey('spring-promo', PAGE))).toBe('unsaved on spring-promo')
  })
})
