import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVER_STOPPED_ERROR } from '../../../engine/control-center/content-factory/run-machine'
import { startTextgenStandIn, type TextgenStandIn } from '../../../tests/fixtures/textgen-stand-in/stand-in'
import { type CcHarness, ONE_PER_ROLE, startCcHarness } from '../api/cc-test-harness'

/** A content-factory run when its server stops: the row says what happened, nothing is left "running". */
describe('content runs at shutdown', { timeout: 60_000 }, () => {
  let h: CcHarness<'editor' | 'viewer' | 'publisher'>
  let textgen: TextgenStandIn
  beforeAll(async () => {
    textgen = await startTextgenStandIn()
    h = await startCcHarness({
      prefix: 'fw-content-runs-',
      staff: ONE_PER_ROLE,
      config: { textgenBaseUrl: textgen.url, textgenTimeoutMs: 30_000, textgenMaxConcurrency: 1 },
    })
  }, 60_000)
  afterAll(async () => {
    textgen.holdSlow = false
    await h?.close()
    await textgen?.close()
  })

  const rowOf = async (id: string) =>
    (
      await h.store.db.query<{ status: string; error: string | null; finished: boolean; output: string }>(
        'SELECT status, error, finished_at IS NOT NULL AS finished, output FROM content_runs WHERE id = $1',
        [id],
      )
    ).rows[0]

  it('ends the run it drives as failed ("the server stopped…") and leaves a queued run queued', async () => {
    expect((await h.call('editor', 'POST', '/api/cc/branches', { title: 'Factory' })).status).toBe(201)
    textgen.mode = 'slow'
    textgen.holdSlow = true
    const start = async (topic: string) => {
      const r = await h.call('editor', 'POST', '/api/cc/branches/factory/runs', {
        author: 'mpa-agents',
        brief: { topic, carrier: 'Humana' },
      })
      expect(r.status, r.text).toBe(201)
      return r.json.run.id as string
    }
    const running = await start('Running when the server stops')
    const queued = await start('Still queued')
    // The first run is streaming (held halfway by the stand-in); the second waits for the one slot.
    for (let i = 0; i < 300 && !(await rowOf(running)).output; i++)
      await new Promise((r) => setTimeout(r, 20))
    expect((await rowOf(running)).status).toBe('running')
    expect((await rowOf(queued)).status).toBe('queued')

    await h.cc.close()

    expect(await rowOf(running)).toMatchObject({
      status: 'failed',
      error: SERVER_STOPPED_ERROR,
      finished: true,
    })
    expect(await rowOf(queued)).toMatchObject({ status: 'queued', finished: false })
    // The run's end is audited like any other.
    const finishes = await h.store.db.query<{ details: { run: string; status: string; error: string } }>(
      `SELECT details FROM audit_log WHERE action = 'run.finish'`,
    )
    expect(finishes.rows.map((r) => r.details)).toEqual([
      { run: running, status: 'failed', error: SERVER_STOPPED_ERROR },
    ])
  })
})
