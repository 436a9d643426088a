/**
 * Property-based fuzzing of every control-center route, /api/cc/* (issue 27): each route the router
 * has (read from the router itself, so a new route is fuzzed without a line here), signed in as each
 * role, with hostile path parameters (NUL, newlines, `..`, `-` options, ref syntax, bad percent
 * escapes), query values, upload file names and JSON bodies, always gets an answer below 500; a
 * refusal is a JSON error naming its reason. Bounded for `npm test`; `npm run fuzz` runs FUZZ_RUNS
 * (default 1000) requests per route.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CcHarness,
  ccRouteAnswers,
  ONE_PER_ROLE,
  startCcHarness,
  testPng,
} from '../control-center/api/cc-test-harness'
import { IMAGE_UPLOAD_PATHS } from '../control-center/api/images'
import { setLogLevel } from '../log'
import { deep, edges, mutated } from './fuzz-arbitraries'

/** Generated requests per route (besides the known-bad ones every run sends, KNOWN_BAD). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2)
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined

const ROLES = ['viewer', 'editor', 'publisher', 'admin'] as const
type Role = (typeof ROLES)[number]
const BRANCH = 'fuzz'
const ZERO = '0'.repeat(40)

/** Strings that have confused git, SQL or URL handling somewhere, in families picked equally often. */
const hostile = fc.oneof(
  // Control characters, alone and inside a plausible value.
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    'edge\u0000',
    '\n',
    '\r\n',
    'definitions/site.json\n',
    '\t',
    '\u007f',
    '\u0085',
    '\u2028',
  ),
  // Leaving the tree: `..`, `.`, absolute, empty segments, backslashes, .git.
  fc.constantFrom(
    '..',
    '../',
    '../../etc/passwd',
    './x',
    './',
    '.',
    '/',
    '//',
    '.git',
    '.git/config',
    'definitions/../x.json',
    'definitions//site.json',
    '/etc/passwd',
    '\\',
    'a\\b',
  ),
  // Options and git's revision and ref syntax.
  fc.constantFrom(
    '-',
    '--',
    '--upload-pack=touch /tmp/x',
    '-n',
    'HEAD',
    'HEAD~1',
    'live^',
    'live~1',
    '@{-1}',
    '@',
    'a..b',
    'x.lock',
    'refs/heads/published',
    ':/',
    ':/x',
    'x:y',
    '*',
    '?',
    '[',
  ),
  // Odd but printable: case, space, length, surrogates, SQL, numbers.
  fc.constantFrom(
    ' ',
    ' live',
    'LIVE',
    'x'.repeat(300),
    'x'.repeat(5000),
    '\ud800',
    '😀',
    "'; DROP TABLE audit_log; --",
    '%',
    '0',
    '-1',
    '1e309',
    'NaN',
    ZERO,
  ),
  // Plausible values (reaching past the first check).
  fc.constantFrom('live', BRANCH, 'definitions/site.json', 'ui/public/images/uploads/x.webp'),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ maxLength: 12 }),
)

/** Percent-encodes every byte but the unreserved ones (a lone surrogate becomes U+FFFD's bytes). */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('')
/** Escapes a URL parser or decoder may choke on, sent as they are. */
const rawEscape = fc.constantFrom(
  '%',
  '%zz',
  '%c0%ae',
  '%ff',
  '%2e%2e',
  '..%2F',
  '%2F',
  '%00',
  '%0a',
  '%e2%80%a8',
)

const urlValue = (valid: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valid).map(encode) },
    { weight: 5, arbitrary: hostile.map(encode) },
    { weight: 1, arbitrary: rawEscape },
  )

const QUERY_NAMES = [
  'path',
  'branch',
  'kind',
  'page',
  'funnel',
  'phase',
  'dimension',
  'refresh',
  'archived',
  'actor',
  'action',
  'before',
  'limit',
  'expectedHead',
  'alt',
  'decorative',
  'credit',
  'id',
]

/**
 * Inputs that made a 500 before issue 27 (a `..` or newline in `?path=` killing the shared cat-file
 * process, a NUL in a branch name, a drafts path, the audit filters, an upload's file name) or since
 * (query names that are prototype keys): sent to
 * every route as every role on every run, whatever FUZZ_RUNS is. Each is [every path parameter (null:
 * a valid one), query, X-Filename].
 */
const KNOWN_BAD: [string | null, [string, string][], string | undefined][] = [
  [
    null,
    [
      ['path', '..%2F'],
      ['actor', 'a%00b'],
    ],
    'photo%00.png',
  ],
  [
    null,
    [
      ['path', 'a%0Ab'],
      ['action', '%0A'],
      ['branch', 'x%00'],
    ],
    '%0A',
  ],
  [
    null,
    [
      ['valueOf', 'x'],
      ['__proto__', 'y'],
      ['constructor', 'z'],
    ],
    undefined,
  ],
  ['a%00b', [], undefined],
  ['..%2F', [['path', '-x']], '-x'],
]

interface Route {
  method: string
  path: string
  params: string[]
}

/** Every /api/cc route, as the router registers them. */
function ccRoutes(): Route[] {
  return ccRouteAnswers().map(({ method, path }) => ({
    method,
    path,
    params: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]),
  }))
}

describe.concurrent('fuzzing every /api/cc route as every role', () => {
  let h: CcHarness<Role>
  let head = ZERO
  let live = ZERO
  let png: Buffer
  /** Valid values per path parameter and query name: the fuzzer mixes them in to reach past the first check. */
  const valid: Record<string, string[]> = {
    b: ['live', BRANCH],
    id: ['fuzz-image', 'grocery-headline', '1'],
    path: ['definitions/site.json', 'definitions/pages/home-m10.json'],
    branch: [BRANCH, 'live'],
  }
  /** Valid bodies of the routes that take one (others get generated JSON). */
  const seeds: Record<string, () => unknown> = {
    'POST /api/cc/branches': () => ({ title: 'Fuzz branch', description: 'x' }),
    'PATCH /api/cc/branches/:b': () => ({ title: 'Fuzzed', description: 'y' }),
    'PUT /api/cc/branches/:b/drafts': () => ({ text: '{"a": 1}\n', base: head }),
    'POST /api/cc/branches/:b/commits': () => ({
      message: 'm',
      expectedHead: head,
      paths: ['definitions/site.json'],
    }),
    'POST /api/cc/branches/:b/reviews': () => ({ decision: 'request', comment: 'c' }),
    'POST /api/cc/branches/:b/merge-live': () => ({ expectedHead: head, resolutions: [] }),
    'POST /api/cc/branches/:b/publish': () => ({ expectedHead: head }),
    'POST /api/cc/rollback': () => ({ publication: '1', expectedLive: live }),
    'POST /api/cc/previews': () => ({ branch: BRANCH, drafts: true, brand: 'm10', path: '/' }),
    'PUT /api/cc/branches/:b/presence': () => ({ path: 'definitions/site.json' }),
    'POST /api/cc/branches/:b/experiments': () => ({
      id: 'fuzz-exp',
      page: 'home-m10',
      description: 'd',
      variant: 'b',
      headline: 'h',
      expectedHead: head,
    }),
    'POST /api/cc/branches/:b/experiments/:id/decisions': () => ({ decision: 'pause', expectedHead: head }),
    'POST /api/cc/experiments/:id/emergency-pause': () => ({ reason: 'r' }),
    'POST /api/cc/branches/:b/runs': () => ({ author: 'someone', brief: {} }),
    'PUT /api/cc/branches/:b/images/:id': () => ({ alt: 'a', decorative: false, expectedHead: head }),
    'POST /api/cc/branches/:b/article-preview': () => ({ path: 'definitions/articles/x.json', text: '{}' }),
    'POST /api/cc/leads/export': () => ({ key: 'nobody@example.com' }),
    'POST /api/cc/leads/erase': () => ({ key: '5550001111' }),
  }

  beforeAll(async () => {
    setLogLevel('error')
    h = await startCcHarness({
      prefix: 'fw-cc-fuzz-',
      staff: {
        ...ONE_PER_ROLE,
        admin: { name: 'Admin', role: 'admin' },
      },
    })
    const made = await h.call('editor', 'POST', '/api/cc/branches', { title: 'Fuzz', name: BRANCH })
    if (made.status !== 201) throw new Error(`branch: ${made.status} ${made.text}`)
    head = made.json.branch.head
    live = (await h.call('viewer', 'GET', '/api/cc/status')).json.live.commit
    png = await testPng(16, 8, '#0a0')
    // An image for the image routes' valid id (the experiment's is in definitions/).
    const image = await h.send('editor', 'POST', `/api/cc/branches/${BRANCH}/images?id=fuzz-image`, png, {
      'content-type': 'image/png',
      'x-filename': 'fuzz.png',
    })
    if (image.status !== 201) throw new Error(`image: ${image.status} ${image.text}`)
    head = image.json.commit
  }, 180_000)
  afterAll(async () => {
    await h?.close()
  })

  it('derives the routes from the router (a new route is fuzzed without a line here)', () => {
    const routes = ccRoutes()
    expect(routes.length).toBeGreaterThan(30)
    expect(routes).toContainEqual({
      method: 'GET',
      path: '/api/cc/branches/:b/history',
      params: ['b'],
    })
  })

  for (const route of ccRoutes())
    it(
      `${route.method} ${route.path}: every role, any input, an answer below 500`,
      async () => {
        const key = `${route.method} ${route.path}`
        const upload = IMAGE_UPLOAD_PATHS.some((re) => re.test(route.path.replace(/:\w+/g, 'x')))
        const params = fc.tuple(...route.params.map((p) => urlValue(valid[p] ?? valid.id)))
        const query = fc.array(
          fc.tuple(
            fc.oneof(
              { weight: 5, arbitrary: fc.constantFrom(...QUERY_NAMES) },
              { weight: 1, arbitrary: hostile },
            ),
            fc.oneof(urlValue(valid.path), urlValue(valid.branch)),
          ),
          { maxLength: 4 },
        )
        const seed = seeds[key]
        const json = fc.oneof(
          ...(seed
            ? [
                { weight: 6, arbitrary: mutated(seed()) },
                { weight: 2, arbitrary: fc.constant(JSON.stringify(seed())) },
              ]
            : []),
          { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
          { weight: 1, arbitrary: edges.map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: deep },
          { weight: 1, arbitrary: fc.constant('{') },
        )
        const raw = fc.oneof(
          fc.constant(png),
          fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
          fc.constant(Buffer.alloc(0)),
        )
        const body =
          route.method === 'GET'
            ? fc.constant(undefined)
            : upload
              ? fc.oneof(
                  { weight: 4, arbitrary: raw },
                  { weight: 1, arbitrary: json.map((s) => Buffer.from(s)) },
                )
              : json.map((s) => Buffer.from(s))
        const contentType = upload
          ? fc.constantFrom('image/png', 'application/octet-stream', 'application/json', 'text/plain')
          : fc.oneof(
              { weight: 8, arbitrary: fc.constant('application/json') },
              { weight: 1, arbitrary: fc.constantFrom('text/plain', '') },
            )
        const fileName = fc.option(fc.oneof(hostile.map(encode), rawEscape, fc.constant('photo.png')), {
          nil: undefined,
        })

        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...ROLES),
            params,
            query,
            body,
            contentType,
            fileName,
            async (role, values, q, payload, type, name) => {
              let i = 0
              const path = route.path.replace(/:\w+/g, () => values[i++])
              const qs = q.map(([k, v]) => `${encode(k)}=${v}`).join('&')
              const url = `${path}${qs ? `?${qs}` : ''}`
              const headers: Record<string, string> = {}
              if (route.method !== 'GET') headers['content-type'] = type
              if (upload && name !== undefined) headers['x-filename'] = name
              const answer = await h.send(role, route.method, url, payload, headers)
              if (process.env.FUZZ_DEBUG) console.log(answer.status, url)
              const what = `${role} ${route.method} ${url} ${payload?.toString('utf8').slice(0, 300) ?? ''}`
              expect(answer.status, `${what}\n→ ${answer.text.slice(0, 500)}`).toBeLessThan(500)
              if (answer.status >= 400) {
                expect(answer.json?.status, `${what}\n→ ${answer.text.slice(0, 500)}`).toBe(answer.status)
                expect(answer.json.error.length).toBeGreaterThan(3)
              }
            },
          ),
          {
            numRuns: RUNS,
            seed: SEED,
            endOnFailure: true,
            examples: KNOWN_BAD.map(([param, query, name], i) => [
              ROLES[i % ROLES.length],
              route.params.map((p) => param ?? (valid[p] ?? valid.id)[0]),
              query,
              route.method === 'GET' ? undefined : upload ? png : Buffer.from(JSON.stringify(seed?.() ?? {})),
              upload ? 'image/png' : 'application/json',
              name,
            ]),
          },
        )
      },
      Math.max(120_000, RUNS * 3_000),
    )
})
