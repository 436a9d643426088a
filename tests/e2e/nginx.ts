/**
 * Debian's nginx on loopback, as an unprivileged process with its own prefix, configuration, cache and
 * temp folders in a temporary directory (no /etc/nginx, /var/log or /var/cache needed). Used by
 * tests/e2e/nginx-cache.e2e.ts (the README's cache in front) and by the bench (the static-file limit).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { captureOutput, PROJECT_ROOT } from './server-process'

export const NGINX_PATH = process.env.NGINX_PATH ?? '/usr/sbin/nginx'
export const NGINX_MISSING = `nginx not found at ${NGINX_PATH}: install Debian's package (sudo apt-get install -y nginx) or set NGINX_PATH. npm test installs it itself when run as root.`

/** The README's nginx files (decisions 0511, 0320, 0330, 0331): one set for README, tests and bench. */
export const NGINX_DOCS = join(PROJECT_ROOT, 'docs', 'nginx')
/** conf.d's file: plain HTTP (TLS ends before nginx) — what the tests and the bench run. */
export const README_NGINX_CONF = join(NGINX_DOCS, 'funnelworks.conf')
/** conf.d's file when nginx ends TLS (in place of README_NGINX_CONF). */
export const README_NGINX_TLS_CONF = join(NGINX_DOCS, 'funnelworks-tls.conf')
/** The snippets both include (`include snippets/NAME;`, installed in /etc/nginx/snippets/). */
export const NGINX_SNIPPETS = ['funnelworks-upstream.conf', 'funnelworks-proxy.conf']
const INCLUDE_SNIPPET = /^( *)include snippets\/([\w.-]+);$/gm

/** `file` with each `include snippets/NAME;` replaced by docs/nginx/NAME (indented alike). */
export function inlinedNginxConf(file = README_NGINX_CONF): string {
  return readFileSync(file, 'utf8').replace(INCLUDE_SNIPPET, (_, indent: string, name: string) => {
    if (!NGINX_SNIPPETS.includes(name))
      throw new Error(`${file} includes ${name}, which docs/nginx does not hold`)
    return readFileSync(join(NGINX_DOCS, name), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => (l ? indent + l : l))
      .join('\n')
  })
}

export interface RunningNginx {
  port: number
  dir: string
  child: ChildProcess
  /** nginx's error log so far. */
  errors(): string
  /** The access log so far (ACCESS_LOG_FORMAT), parsed; empty unless started with `accessLog`. */
  requests(): LoggedRequest[]
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/** One request as the access log has it: which upstreams nginx asked, in order, and what each said. */
export interface LoggedRequest {
  /** Seconds since the epoch, with milliseconds (nginx's $msec: when the answer ended). */
  at: number
  method: string
  status: number
  /** "127.0.0.1:3000" per attempt ($upstream_addr); empty for a cache hit. */
  upstreams: string[]
  upstreamStatuses: string[]
  uri: string
}

const ACCESS_LOG_FORMAT = `'$msec $request_method $status "$upstream_addr" "$upstream_status" $request_uri'`

function parseAccessLog(text: string): LoggedRequest[] {
  // Attempts are separated by ", " ($upstream_addr, $upstream_status; " : " after an internal redirect).
  const attempts = (s: string) => (s === '-' ? [] : s.split(/, | : /))
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const m = /^(\S+) (\S+) (\d+) "([^"]*)" "([^"]*)" (.*)$/.exec(line)
      if (!m) throw new Error(`access log line not understood: ${line}`)
      return {
        at: Number(m[1]),
        method: m[2],
        status: Number(m[3]),
        upstreams: attempts(m[4]),
        upstreamStatuses: attempts(m[5]),
        uri: m[6],
      }
    })
}

/**
 * Starts nginx in the foreground with `server` (an `http {}` body: server blocks, cache paths) whose
 * `listen` is `{port}`; `{dir}` names its temporary folder. Throws NGINX_MISSING without nginx.
 */
export async function startNginx(
  server: (p: { port: number; dir: string }) => string,
  /** Worker processes: 1 for tests; `auto` (Debian's default, one per core) for the bench's limit. */
  workers: number | 'auto' = 1,
  /** Log every request (method, status, upstreams asked) for `requests()`. */
  accessLog = false,
): Promise<RunningNginx> {
  if (!existsSync(NGINX_PATH)) throw new Error(NGINX_MISSING)
  const dir = mkdtempSync(join(tmpdir(), 'fw-nginx-'))
  // Run as root, nginx's workers switch to nobody: they must reach the folder.
  chmodSync(dir, 0o755)
  mkdirSync(join(dir, 'tmp'))
  const port = await freePort()
  const errorLog = join(dir, 'error.log')
  writeFileSync(errorLog, '')
  const accessLogFile = join(dir, 'access.log')
  writeFileSync(accessLogFile, '')
  const conf = `worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${errorLog} warn;
daemon off;
events { worker_connections 1024; }
http {
${accessLog ? `  log_format requests ${ACCESS_LOG_FORMAT};\n  access_log ${accessLogFile} requests;` : '  access_log off;'}
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${server({ port, dir })}
}
`
  writeFileSync(join(dir, 'nginx.conf'), conf)
  const child = spawn(NGINX_PATH, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', errorLog], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const out = captureOutput(child)
  const errors = () => `${out()}${readFileSync(errorLog, 'utf8')}`
  for (let i = 0; i < 100 && !(await accepting(port)); i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${errors()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  if (!(await accepting(port))) throw new Error(`nginx did not listen on ${port}:\n${errors()}`)
  return {
    port,
    dir,
    child,
    errors,
    requests: () => parseAccessLog(readFileSync(accessLogFile, 'utf8')),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        try {
          // QUIT: graceful; the group holds the master and its workers.
          process.kill(-child.pid!, 'SIGQUIT')
        } catch {
          resolve()
        }
        setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL')
          } catch {}
        }, 3_000).unref()
      }),
  }
}

/**
 * The README's configuration on loopback (`file`, its snippets inlined): its cache folder in `dir`,
 * listening on `port`, in front of the instances on `upstreams` — the upstream's example `server`
 * lines become one per port, each with the same parameters (max_fails, fail_timeout). Each replaced
 * text must be there exactly once (`swaps` too), so README and test agree.
 */
export function readmeNginxConf(
  p: { port: number; dir: string },
  upstreams: number | readonly number[],
  file = README_NGINX_CONF,
  swaps: [string, string][] = [['listen 80;', `listen 127.0.0.1:${p.port};`]],
): string {
  let conf = inlinedNginxConf(file)
  for (const [from, to] of [['/var/cache/nginx/funnelworks', `${p.dir}/cache`], ...swaps]) {
    if (conf.split(from).length !== 2) throw new Error(`${file} should name ${from} once`)
    conf = conf.replace(from, to)
  }
  // One `server` line per port, with the parameters the README gives each instance.
  const lines = conf.split('\n')
  const servers = lines.map((l) => UPSTREAM_SERVER.exec(l)).filter((m) => m !== null)
  if (servers.length === 0 || new Set(servers.map((m) => m[3])).size !== 1)
    throw new Error(`${file} should list its instances as "server 127.0.0.1:PORT …;" alike`)
  const [indent, , parameters] = servers[0].slice(1)
  const at = lines.findIndex((l) => UPSTREAM_SERVER.test(l))
  const ours = [upstreams].flat().map((port) => `${indent}server 127.0.0.1:${port}${parameters};`)
  return [...lines.slice(0, at), ...ours, ...lines.slice(at).filter((l) => !UPSTREAM_SERVER.test(l))].join(
    '\n',
  )
}

/** An instance in the README's upstream: indentation, port, parameters. */
const UPSTREAM_SERVER = /^( *)server 127\.0\.0\.1:(\d+)([^;]*);$/

/** The README's upstream parameters for each instance (`fail_timeout=3s` → { failTimeoutS: 3 }). */
export function readmeUpstreamParameters(): { maxFails: number; failTimeoutS: number } {
  const conf = inlinedNginxConf()
  const m = /server 127\.0\.0\.1:\d+ max_fails=(\d+) fail_timeout=(\d+)s;/.exec(conf)
  if (!m) throw new Error(`${README_NGINX_CONF}: no "server … max_fails=N fail_timeout=Ns;" line`)
  return { maxFails: Number(m[1]), failTimeoutS: Number(m[2]) }
}

/** Every nginx file of the README, as a README code block shows it. */
export const readmeNginxBlocks = (): string[] =>
  [README_NGINX_CONF, README_NGINX_TLS_CONF, ...NGINX_SNIPPETS.map((n) => join(NGINX_DOCS, n))].map(
    (f) => `\`\`\`nginx\n${readFileSync(f, 'utf8')}\`\`\``,
  )
