import { Agent, request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startServerProcess } from './server-process'

/**
 * The server may let in-flight requests finish for SHUTDOWN_TIMEOUT_MS and keeps idle keep-alive
 * sockets for KEEP_ALIVE_TIMEOUT_MS: set both to a minute here, so "it ends soon after its last answer"
 * (a few seconds at most, closing the store included, even on a loaded machine) cannot be mistaken
 * for either wait.
 */
const WAIT_MS = 60_000
const PROMPT_MS = 15_000

describe('SIGTERM under keep-alive load', () => {
  it('ends with no reset connection, well before its shutdown and keep-alive timeouts', async () => {
    const server = await startServerProcess({
      SHUTDOWN_TIMEOUT_MS: String(WAIT_MS),
      KEEP_ALIVE_TIMEOUT_MS: String(WAIT_MS),
    })
    const agent = new Agent({ keepAlive: true, maxSockets: 8 })
    const errors: string[] = []
    let answered = 0
    let lastAnswerAt = 0
    let stopped = false
    const one = () =>
      new Promise<void>((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/healthz',
            agent,
            headers: { host: 'm10.localhost' },
          },
          (res) => {
            res.resume()
            res.on('end', () => {
              answered++
              lastAnswerAt = Date.now()
              resolve()
            })
          },
        )
        req.on('error', (e: NodeJS.ErrnoException) => {
          // A refused new connection is the server having stopped listening: the client stops too.
          if (e.code === 'ECONNREFUSED') stopped = true
          else errors.push(e.code ?? e.message)
          resolve()
        })
        req.end()
      })
    const client = async () => {
      while (!stopped) await one()
    }
    const clients = Array.from({ length: 8 }, client)
    await new Promise((r) => setTimeout(r, 1_000))
    const before = answered
    const exited = server.stop('SIGTERM')
    const code = await exited
    const exitedAt = Date.now()
    stopped = true
    await Promise.all(clients)
    agent.destroy()
    expect(before).toBeGreaterThan(0)
    expect(errors).toEqual([])
    expect(code).toBe(0)
    expect(exitedAt - lastAnswerAt).toBeLessThan(PROMPT_MS)
  }, 90_000)
})
