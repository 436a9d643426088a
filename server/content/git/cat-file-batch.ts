import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { getInitialSnapshot, getNextSnapshot, type SnapshotFrom } from 'xstate'
import { readRetryMachine } from './read-retry-machine'

export interface GitObject {
  sha: string
  type: string
  data: Buffer
}

interface Pending {
  name: string
  resolve: (o: GitObject | null) => void
  reject: (e: Error) => void
  /** Where the read is in its life (read-retry-machine.ts): deaths charged, failed or not. */
  state: SnapshotFrom<typeof readRetryMachine>
}

/** One running `git cat-file --batch` with the reads it has not answered yet, in order. */
interface Batch {
  child: ChildProcessWithoutNullStreams
  pending: Pending[]
  buffer: Buffer
}

/**
 * One long-lived `git cat-file --batch` process: object names in, objects out, in order. Reading a
 * whole tree's blobs this way costs one process instead of one per file (docs/decisions/0600).
 *
 * Many requests share the process, so it must never fail one read for another's sake: when it dies
 * (killed, or git gives up on a name with `fatal:`), a new one starts and every unanswered read is
 * sent again — the ones queued behind first, then the one it died on (docs/decisions/0706). Only a
 * read the process dies on twice fails, with git's own words.
 */
export class CatFileBatch {
  #batch: Batch | undefined
  #closed = false

  constructor(readonly gitDir: string) {}

  #start(): Batch {
    if (this.#batch) return this.#batch
    const child = spawn('git', [`--git-dir=${this.gitDir}`, 'cat-file', '--batch'], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const batch: Batch = { child, pending: [], buffer: Buffer.alloc(0) }
    let stderr = ''
    child.stdout.on('data', (b: Buffer) => {
      batch.buffer = batch.buffer.length ? Buffer.concat([batch.buffer, b]) : b
      this.#drain(batch)
    })
    child.stderr.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString('utf8')).slice(-2000)
    })
    child.stdin.on('error', () => {})
    let ended = false
    const end = (why: string) => {
      if (ended) return
      ended = true
      if (this.#batch === batch) this.#batch = undefined
      this.#retry(batch.pending.splice(0), `git cat-file --batch ${why}${stderr ? `: ${stderr.trim()}` : ''}`)
    }
    child.on('error', (e) => end(`failed (${e.message})`))
    // 'close', not 'exit': every answer the process wrote has been read by then.
    child.on('close', (code, signal) => end(`exited (${signal ?? code})`))
    this.#batch = batch
    return batch
  }

  /** Sends the reads a dead process left unanswered to a new one; the first was being answered. */
  #retry(unanswered: Pending[], why: string): void {
    if (!unanswered.length) return
    /** Moves a read on; false when it failed (and was rejected). */
    const goesOn = (p: Pending, current: boolean) => {
      p.state = getNextSnapshot(
        readRetryMachine,
        p.state,
        this.#closed ? { type: 'CLOSED' } : { type: 'DIED', current },
      )
      if (p.state.value !== 'failed') return true
      p.reject(new Error(this.#closed ? 'cat-file batch is closed' : why))
      return false
    }
    const [current, ...behind] = unanswered
    // The reads queued behind go first, the one it died on last.
    const again = behind.filter((p) => goesOn(p, false))
    if (goesOn(current, true)) again.push(current)
    for (const p of again) this.#send(p)
  }

  #send(p: Pending): void {
    const batch = this.#start()
    batch.pending.push(p)
    batch.child.stdin.write(`${p.name}\n`)
  }

  #drain(batch: Batch): void {
    while (batch.pending.length) {
      const nl = batch.buffer.indexOf(10)
      if (nl < 0) return
      const header = batch.buffer.subarray(0, nl).toString('utf8')
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        batch.buffer = batch.buffer.subarray(nl + 1)
        batch.pending.shift()!.resolve(null)
        continue
      }
      const [sha, type, sizeText] = header.split(' ')
      const size = Number(sizeText)
      if (batch.buffer.length < nl + 1 + size + 1) return
      const data = Buffer.from(batch.buffer.subarray(nl + 1, nl + 1 + size))
      batch.buffer = batch.buffer.subarray(nl + 1 + size + 1)
      batch.pending.shift()!.resolve({ sha, type, data })
    }
  }

  /** Reads an object by name (`<sha>`, `<commit>:<path>`); null when it does not exist. */
  read(name: string): Promise<GitObject | null> {
    if (this.#closed) return Promise.reject(new Error('cat-file batch is closed'))
    if (/[\n\r\0]/.test(name)) return Promise.reject(new Error(`bad object name "${name}"`))
    return new Promise((resolve, reject) =>
      this.#send({ name, resolve, reject, state: getInitialSnapshot(readRetryMachine) }),
    )
  }

  close(): void {
    this.#closed = true
    const batch = this.#batch
    this.#batch = undefined
    if (batch) {
      batch.child.removeAllListeners('close')
      batch.child.removeAllListeners('error')
      batch.child.stdin.end()
      batch.child.kill()
      for (const p of batch.pending.splice(0)) p.reject(new Error('cat-file batch is closed'))
    }
  }
}
