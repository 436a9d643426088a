import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'

export interface GitObject {
  sha: string
  type: string
  data: Buffer
}

interface Pending {
  resolve: (o: GitObject | null) => void
  reject: (e: Error) => void
}

/**
 * One long-lived `git cat-file --batch` process: object names in, objects out, in order. Reading a
 * whole tree's blobs this way costs one process instead of one per file (docs/decisions/0600).
 */
export class CatFileBatch {
  #child: ChildProcessWithoutNullStreams | undefined
  #pending: Pending[] = []
  #buffer: Buffer = Buffer.alloc(0)
  #closed = false

  constructor(readonly gitDir: string) {}

  #start(): ChildProcessWithoutNullStreams {
    if (this.#child) return this.#child
    const child = spawn('git', [`--git-dir=${this.gitDir}`, 'cat-file', '--batch'], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    child.stdout.on('data', (b: Buffer) => {
      this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, b]) : b
      this.#drain()
    })
    child.stdin.on('error', () => {})
    const fail = (e: Error) => {
      this.#child = undefined
      this.#buffer = Buffer.alloc(0)
      for (const p of this.#pending.splice(0)) p.reject(e)
    }
    child.on('error', fail)
    child.on('exit', (code) => fail(new Error(`git cat-file --batch exited (${code})`)))
    this.#child = child
    return child
  }

  #drain(): void {
    while (this.#pending.length) {
      const nl = this.#buffer.indexOf(10)
      if (nl < 0) return
      const header = this.#buffer.subarray(0, nl).toString('utf8')
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.#buffer = this.#buffer.subarray(nl + 1)
        this.#pending.shift()!.resolve(null)
        continue
      }
      const [sha, type, sizeText] = header.split(' ')
      const size = Number(sizeText)
      if (this.#buffer.length < nl + 1 + size + 1) return
      const data = Buffer.from(this.#buffer.subarray(nl + 1, nl + 1 + size))
      this.#buffer = this.#buffer.subarray(nl + 1 + size + 1)
      this.#pending.shift()!.resolve({ sha, type, data })
    }
  }

  /** Reads an object by name (`<sha>`, `<commit>:<path>`); null when it does not exist. */
  read(name: string): Promise<GitObject | null> {
    if (this.#closed) return Promise.reject(new Error('cat-file batch is closed'))
    if (/[\n\r]/.test(name)) return Promise.reject(new Error(`bad object name "${name}"`))
    const child = this.#start()
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject })
      child.stdin.write(`${name}\n`)
    })
  }

  close(): void {
    this.#closed = true
    const child = this.#child
    this.#child = undefined
    if (child) {
      child.removeAllListeners('exit')
      child.stdin.end()
      child.kill()
    }
  }
}
