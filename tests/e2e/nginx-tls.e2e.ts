/**
 * The README's TLS front (issue 37, acceptance 5; decision 0331): docs/nginx/funnelworks-tls.conf with
 * its snippets, laid out as in /etc/nginx, passes `nginx -t` with a certificate the test makes
 * (openssl, self-signed). Then the same configuration serves one instance whose TRUSTED_PROXIES names
 * nginx: HTTP redirects to HTTPS, and over HTTPS the instance believes nginx's X-Forwarded-Proto —
 * HSTS, and staff cookies `__Host-` prefixed and Secure.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_SESSION_COOKIE } from '../../engine/constants'
import { CC_LAST_BRANCH_COOKIE } from '../../engine/render/control-center-routes'
import { httpGet } from './http'
import {
  freePort,
  NGINX_DOCS,
  NGINX_MISSING,
  NGINX_PATH,
  NGINX_SNIPPETS,
  README_NGINX_TLS_CONF,
  type RunningNginx,
  readmeNginxConf,
  startNginx,
} from './nginx'
import { newDataDir, type ServerProcess, startServerProcess } from './server-process'
import { addStaff } from './staff-cli'

const OPENSSL = process.env.OPENSSL_PATH ?? '/usr/bin/openssl'
/** Where the README's TLS configuration reads its certificate and key. */
const CERT = '/etc/ssl/funnelworks/fullchain.pem'
const KEY = '/etc/ssl/funnelworks/privkey.pem'
const STAFF = { email: 'tls-admin@example.com', password: 'correct-horse-battery-tls' }

let dir: string
let cert: { cert: string; key: string }
let server: ServerProcess
let nginx: RunningNginx
let plainPort: number

/** A self-signed certificate for the brand hosts and the control center's, valid for a day. */
function selfSigned(into: string) {
  const files = { cert: join(into, 'fullchain.pem'), key: join(into, 'privkey.pem') }
  const r = spawnSync(
    OPENSSL,
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=funnelworks test',
      '-addext',
      'subjectAltName=DNS:*.localhost,DNS:*.example.com',
      '-keyout',
      files.key,
      '-out',
      files.cert,
    ],
    { encoding: 'utf8' },
  )
  if (r.status !== 0) throw new Error(`openssl failed:\n${r.stderr}`)
  return files
}

/** An HTTPS request to nginx on loopback, for `host` (SNI and Host), the test's certificate trusted. */
function httpsCall(
  port: number,
  host: string,
  method: string,
  path: string,
  opts: { body?: unknown; cookie?: string } = {},
) {
  return new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: string
  }>((resolve, reject) => {
    const headers: Record<string, string> = { host, origin: `https://${host}` }
    if (opts.cookie) headers.cookie = opts.cookie
    if (opts.body !== undefined) headers['content-type'] = 'application/json'
    const req = request(
      { host: '127.0.0.1', port, path, method, headers, servername: host, rejectUnauthorized: false },
      (res) => {
        let body = ''
        res.on('data', (c) => {
          body += c
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(opts.body === undefined ? undefined : JSON.stringify(opts.body))
  })
}

const setCookies = (h: Record<string, string | string[] | undefined>) =>
  ([] as string[]).concat(h['set-cookie'] ?? [])

beforeAll(async () => {
  if (!existsSync(NGINX_PATH)) throw new Error(NGINX_MISSING)
  dir = mkdtempSync(join(tmpdir(), 'fw-tls-'))
  cert = selfSigned(dir)
  const dataDir = newDataDir()
  addStaff({ DATA_DIR: dataDir }, STAFF.password, [[STAFF.email, 'TLS Admin', 'admin']])
  // nginx on loopback is the proxy the README lists in TRUSTED_PROXIES.
  server = await startServerProcess({ DATA_DIR: dataDir, TRUSTED_PROXIES: '127.0.0.1' })
  plainPort = await freePort()
  nginx = await startNginx((p) =>
    readmeNginxConf(p, server.port, README_NGINX_TLS_CONF, [
      ['listen 80;', `listen 127.0.0.1:${plainPort};`],
      ['listen 443 ssl http2;', `listen 127.0.0.1:${p.port} ssl http2;`],
      [CERT, cert.cert],
      [KEY, cert.key],
    ]),
  )
}, 120_000)

afterAll(async () => {
  await nginx?.stop()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('nginx ending TLS, configured as the README says', () => {
  it.skipIf(!existsSync(OPENSSL))(
    "nginx -t accepts the README's TLS configuration, laid out as in /etc/nginx",
    () => {
      // /etc/nginx as Debian's package has it: nginx.conf includes conf.d/*.conf in http {}.
      const etc = join(dir, 'etc-nginx')
      mkdirSync(join(etc, 'conf.d'), { recursive: true })
      mkdirSync(join(etc, 'snippets'))
      for (const name of NGINX_SNIPPETS) {
        const text = readFileSync(join(NGINX_DOCS, name), 'utf8')
        writeFileSync(
          join(etc, 'snippets', name),
          text.replace('/var/cache/nginx/funnelworks', join(dir, 'cache')),
        )
      }
      const conf = readFileSync(README_NGINX_TLS_CONF, 'utf8')
      expect(conf).toContain(CERT)
      expect(conf).toContain(KEY)
      writeFileSync(
        join(etc, 'conf.d', 'funnelworks.conf'),
        conf.replace(CERT, cert.cert).replace(KEY, cert.key),
      )
      writeFileSync(
        join(etc, 'nginx.conf'),
        `pid ${join(dir, 'nginx-t.pid')};
events { worker_connections 64; }
http {
  include conf.d/*.conf;
}
`,
      )
      const r = spawnSync(
        NGINX_PATH,
        ['-t', '-p', etc, '-c', join(etc, 'nginx.conf'), '-e', join(dir, 't.log')],
        {
          encoding: 'utf8',
        },
      )
      expect(r.stderr).toMatch(/syntax is ok/)
      expect(r.stderr).toMatch(/test is successful/)
      expect(r.status).toBe(0)
    },
  )

  it('plain HTTP says where to go: the same URL over HTTPS', async () => {
    const r = await httpGet(plainPort, '/grocery?utm_source=x', 'm10.localhost')
    expect(r.status).toBe(301)
    expect(r.headers.location).toBe('https://m10.localhost/grocery?utm_source=x')
  })

  it('over HTTPS through the trusted proxy: HSTS, and staff cookies __Host- and Secure', async () => {
    const home = await httpsCall(nginx.port, 'm10.localhost', 'GET', '/')
    expect(home.status).toBe(200)
    expect(home.headers['strict-transport-security']).toMatch(/^max-age=\d+/)

    const signIn = await httpsCall(nginx.port, 'ccc.localhost', 'POST', '/api/_auth/session', { body: STAFF })
    expect(signIn.status, signIn.body).toBe(200)
    const [session] = setCookies(signIn.headers)
    expect(session).toMatch(new RegExp(`^__Host-${AUTH_SESSION_COOKIE}=`))
    expect(session).toMatch(/; path=\/(;|$)/)
    expect(session).toMatch(/; secure(;|$)/)
    expect(session).not.toMatch(/domain=/i)
    const cookie = session!.split(';')[0]!

    // The control center remembers the branch last opened in a cookie of its own: __Host- too.
    const created = await httpsCall(nginx.port, 'ccc.localhost', 'POST', '/api/cc/branches', {
      body: { title: 'Over TLS' },
      cookie,
    })
    expect(created.status, created.body).toBe(201)
    const branch = (JSON.parse(created.body) as { branch: { name: string } }).branch.name
    const page = await httpsCall(nginx.port, 'ccc.localhost', 'GET', `/pages?branch=${branch}`, { cookie })
    expect(page.status).toBe(200)
    const last = setCookies(page.headers).find((c) => c.includes(CC_LAST_BRANCH_COOKIE))
    expect(last).toMatch(new RegExp(`^__Host-${CC_LAST_BRANCH_COOKIE}=${branch};`))
    expect(last).toMatch(/; path=\/(;|$)/)
    expect(last).toMatch(/; secure(;|$)/)
    expect(nginx.errors()).not.toMatch(/\[(emerg|alert|crit)\]/)
  })
})
