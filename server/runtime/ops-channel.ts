import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The operator socket's name in DATA_DIR. */
export const OPS_SOCKET_NAME = 'ops.sock'

/** Longest Unix socket path Linux takes (sun_path is 108 bytes with its NUL; macOS 104). */
const SOCKET_PATH_MAX_BYTES = 100

/**
 * The operator channel (docs/decisions/0722): the CLIs that go "through the running server" reach it
 * over a Unix socket in DATA_DIR, created mode 0600 for the server's user, never over the site port.
 * Opening the socket is the authentication: whoever may open it may read the data folder anyway.
 * Requests it carries are told apart by their connection, which no header can fake.
 */
export class OpsChannel {
  readonly #connections = new WeakSet<Socket>()
  #server: Server | null = null
  #path: string | null = null
  #ownDir: string | null = null

  /** Whether this request came over the operator socket. */
  carries(req: IncomingMessage): boolean {
    return this.#connections.has(req.socket)
  }

  /** Where the socket is, once listening. */
  get path(): string | null {
    return this.#path
  }

  /**
   * Listens on DATA_DIR/ops.sock (a stale one of a crashed server is removed: the caller holds the
   * folder's claim); a DATA_DIR too deep for a socket path gets a private 0700 folder in the temp dir.
   */
  async listen(dataDir: string, listener: RequestListener): Promise<string> {
    let path = join(dataDir, OPS_SOCKET_NAME)
    if (Buffer.byteLength(path) > SOCKET_PATH_MAX_BYTES) {
      this.#ownDir = mkdtempSync(join(tmpdir(), 'fw-ops-'))
      path = join(this.#ownDir, OPS_SOCKET_NAME)
    }
    rmSync(path, { force: true })
    const server = createServer(listener)
    server.on('connection', (socket: Socket) => this.#connections.add(socket))
    // Born 0600: no moment in which another user could connect before the chmod.
    const umask = process.umask(0o177)
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(path, () => resolve())
      })
    } finally {
      process.umask(umask)
    }
    chmodSync(path, 0o600)
    this.#server = server
    this.#path = path
    return path
  }

  async close(): Promise<void> {
    const server = this.#server
    this.#server = null
    if (server)
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    if (this.#path) rmSync(this.#path, { force: true })
    if (this.#ownDir) rmSync(this.#ownDir, { recursive: true, force: true })
  }
}
