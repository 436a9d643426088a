/**
 * Shutting down without cutting anyone off (docs/decisions/0703). Node's server.close() also closes
 * every idle keep-alive socket at once, racing clients that are sending their next request on it
 * (they see ECONNRESET). Instead: stop accepting, let every busy socket end with its answer (the app
 * says `Connection: close` while closing), and close only sockets that have stayed idle — no byte
 * received since their last answer — for IDLE_GRACE_MS: a client that reuses a socket does so within
 * milliseconds of its last answer.
 */
import type { Server } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

const IDLE_GRACE_MS = 250
const SWEEP_EVERY_MS = 50

export interface GracefulClose {
  /** Stops accepting and resolves once every connection has ended (or `timeoutMs` has passed). */
  close(timeoutMs: number): Promise<void>
}

export function gracefulClose(server: Server): GracefulClose {
  // null while a request is in progress on the socket, else when it last became idle and how many
  // bytes it had read then (more read since: a request is arriving).
  const idleSince = new Map<Socket, { at: number; bytesRead: number } | null>()
  server.on('connection', (socket: Socket) => {
    idleSince.set(socket, { at: Date.now(), bytesRead: 0 })
    socket.once('close', () => idleSince.delete(socket))
  })
  server.on('request', (req, res) => {
    const socket = req.socket
    idleSince.set(socket, null)
    res.once('finish', () => {
      if (idleSince.has(socket)) idleSince.set(socket, { at: Date.now(), bytesRead: socket.bytesRead })
    })
  })
  return {
    close(timeoutMs) {
      return new Promise<void>((resolve) => {
        let done = false
        const finish = () => {
          if (done) return
          done = true
          clearInterval(sweep)
          clearTimeout(force)
          resolve()
        }
        const sweep = setInterval(() => {
          const now = Date.now()
          for (const [socket, idle] of idleSince)
            if (idle && now - idle.at >= IDLE_GRACE_MS && socket.bytesRead === idle.bytesRead)
              socket.destroy()
        }, SWEEP_EVERY_MS)
        const force = setTimeout(() => {
          server.closeAllConnections()
          finish()
        }, timeoutMs)
        force.unref()
        // net.Server's close: stops listening without http.Server's immediate closeIdleConnections().
        NetServer.prototype.close.call(server, () => finish())
      })
    },
  }
}
