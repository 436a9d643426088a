/**
 * Text typed on live is never saved there: it waits for the branch the person picks in "Create a
 * branch to save" and opens there, or is dropped when they cancel — never read by another branch
 * (issue 37). Keys of their own, so no branch name (not even one called "carry") can meet them.
 */

/** Text typed on live, waiting for the offered branch dialog's answer. */
const PENDING = 'fw-cc-live-text:'
/** Text carried to a branch just created to save it; read once by that branch's editor. */
const CARRIED = 'fw-cc-carried:'

export const pendingKey = (path: string) => `${PENDING}${path}`
export const carriedKey = (branch: string, path: string) => `${CARRIED}${branch}:${path}`

const keysWith = (storage: Storage, prefix: string) => {
  const keys: string[] = []
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i)
    if (key?.startsWith(prefix)) keys.push(key)
  }
  return keys
}

/** The person created `branch` to save what they typed on live: every waiting text goes to it. */
export function carryTo(branch: string, storage: Storage = localStorage): void {
  for (const key of keysWith(storage, PENDING)) {
    const text = storage.getItem(key)
    storage.removeItem(key)
    if (text !== null) storage.setItem(carriedKey(branch, key.slice(PENDING.length)), text)
  }
}

/** The person cancelled: what they typed on live is dropped. */
export function dropPending(storage: Storage = localStorage): void {
  for (const key of keysWith(storage, PENDING)) storage.removeItem(key)
}

/** The text carried to `branch` for `path`, once (it is then the editor's to keep or save). */
export function takeCarried(branch: string, path: string, storage: Storage = localStorage): string | null {
  const text = storage.getItem(carriedKey(branch, path))
  if (text !== null) storage.removeItem(carriedKey(branch, path))
  return text
}
