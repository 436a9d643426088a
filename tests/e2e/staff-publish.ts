/**
 * A publisher's moves through the control center's JSON API of one server, as its screens make them:
 * sign in, change one field on a new branch and commit it, publish. Used by tests/e2e/fleet.e2e.ts,
 * tests/e2e/nginx-cache.e2e.ts and `npm run bench -- fleet`.
 */
import { randomBytes } from 'node:crypto'
import { setField } from '../../engine/control-center/content/set-field'
import { sendJson } from './http'

/** A JSON call to the control center's API on one instance, as its own screens send it. */
export async function cc(port: number, method: string, path: string, body?: unknown, cookie = '') {
  const r = await sendJson(port, `ccc.localhost:${port}`, method, path, body, cookie)
  const json = (r.body ? JSON.parse(r.body) : {}) as Record<string, unknown>
  return { status: r.status, json, cookie: r.cookie }
}

/** Signs in on the control center of the instance on `port`; the session is good on every instance. */
export async function signIn(port: number, staff: { email: string; password: string }): Promise<string> {
  let r = await cc(port, 'POST', '/api/_auth/session', staff)
  // A busy machine can spend the sign-in hash budget (docs/decisions/0702): wait as told.
  for (let i = 0; i < 10 && r.status === 429; i++) {
    await new Promise((done) => setTimeout(done, 1_000))
    r = await cc(port, 'POST', '/api/_auth/session', staff)
  }
  if (r.status !== 200) throw new Error(`sign-in answered ${r.status}: ${JSON.stringify(r.json)}`)
  return r.cookie
}

/**
 * Through the control center's API of one instance, as a publisher would: a new branch with `file`'s
 * field at `pointer` set to `value`, committed. Its `publish()` publishes that commit, when wanted,
 * and resolves the new live commit.
 */
export async function prepareEdit(
  port: number,
  cookie: string,
  edit: { file: string; pointer: string; value: string },
): Promise<{ branch: string; head: string; publish: () => Promise<string> }> {
  const ok = async (r: ReturnType<typeof cc>, status = 200) => {
    const got = await r
    if (got.status !== status)
      throw new Error(`control center answered ${got.status}, not ${status}: ${JSON.stringify(got.json)}`)
    return got.json
  }
  const title = `Edit ${randomBytes(4).toString('hex')}`
  const created = await ok(cc(port, 'POST', '/api/cc/branches', { title }, cookie), 201)
  const branch = (created.branch as { name: string }).name
  const file = await ok(
    cc(port, 'GET', `/api/cc/branches/${branch}/file?path=${edit.file}`, undefined, cookie),
  )
  const text = setField(file.text as string, edit.pointer, edit.value)
  await ok(cc(port, 'PUT', `/api/cc/branches/${branch}/drafts?path=${edit.file}`, { text }, cookie))
  const { commit } = await ok(
    cc(
      port,
      'POST',
      `/api/cc/branches/${branch}/commits`,
      { message: title, expectedHead: file.head },
      cookie,
    ),
    201,
  )
  return {
    branch,
    head: commit as string,
    publish: async () => {
      const published = await ok(
        cc(port, 'POST', `/api/cc/branches/${branch}/publish`, { expectedHead: commit }, cookie),
      )
      return (published.publication as { newCommit: string }).newCommit
    },
  }
}
