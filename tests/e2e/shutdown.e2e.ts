import { Agent, request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { startServerProcess } from './server-process'

describe('SIGTERM under keep-alive load', () => {
  it('ends with no reset connection, within 2 s of the last in-flight answer', async () => {
    const server = await startServerProcess()
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
    expect(exitedAt - lastAnswerAt).toBeLessThan(2_000)
  }, 60_000)
})
