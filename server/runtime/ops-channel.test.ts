import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { OPS_SOCKET_NAME, OpsChannel } from './ops-channel'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const get = (socketPath: string) =>
  new Promise<string>((resolve, reject) =>
    request({ socketPath, path: '/' }, (res) => {
      let body = ''
      res.on('data', (c) => {
        body += c
      })
      res.on('end', () => resolve(body))
    })
      .on('error', reject)
      .end(),
  )

describe('the operator channel (docs/decisions/0722)', () => {
  it('is a socket in DATA_DIR only its owner may open, and tells its requests from any other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fw-ops-channel-'))
    dirs.push(dir)
    const channel = new OpsChannel()
    const path = await channel.listen(dir, (req, res) => res.end(channel.carries(req) ? 'ops' : 'other'))
    expect(path).toBe(join(dir, OPS_SOCKET_NAME))
    const st = statSync(path)
    expect(st.isSocket()).toBe(true)
    expect(st.mode & 0o777).toBe(0o600)
    expect(st.uid).toBe(process.getuid?.())
    expect(await get(path)).toBe('ops')
    await channel.close()
    expect(() => statSync(path)).toThrow()
  })

  it('a DATA_DIR too deep for a socket path gets a private folder of its own', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'fw-ops-deep-')), 'd'.repeat(120))
    dirs.push(dir)
    const channel = new OpsChannel()
    const path = await channel.listen(dir, (_req, res) => res.end('ok'))
    expect(path.startsWith(dir)).toBe(false)
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700)
    expect(await get(path)).toBe('ok')
    await channel.close()
  })
})
