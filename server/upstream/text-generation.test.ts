import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildMessages, parseDraft } from '../../engine/control-center/content-factory/prompt'
import {
  STAND_IN_DRAFT,
  startTextgenStandIn,
  type TextgenStandIn,
} from '../../tests/fixtures/textgen-stand-in/stand-in'
import { TextGenError, TextGenerator } from './text-generation'

const messages = buildMessages({ id: 'a', name: 'A', bio: 'B.' }, { topic: 'Dental' }, [])

describe('text-generation adapter against the loopback stand-in', () => {
  let stand: TextgenStandIn
  const gen = (over: Partial<ConstructorParameters<typeof TextGenerator>[0]> = {}) =>
    new TextGenerator({
      baseUrl: stand.url,
      apiKey: 'k',
      model: 'stand-model',
      timeoutMs: 2_000,
      maxConcurrency: 2,
      ...over,
    })
  beforeAll(async () => {
    stand = await startTextgenStandIn()
  })
  afterAll(() => stand?.close())
  beforeEach(() => {
    stand.mode = 'ok'
    stand.requests.length = 0
  })

  it('streams a structured answer piece by piece, with usage', async () => {
    const pieces: string[] = []
    const c = await gen().complete(messages, { onDelta: (p) => pieces.push(p) })
    expect(pieces.length).toBeGreaterThan(3)
    expect(pieces.join('')).toBe(c.text)
    expect(parseDraft(c.text)).toEqual({ ok: true, draft: STAND_IN_DRAFT })
    expect(c).toMatchObject({ model: 'stand-model', promptTokens: 321, structured: true })
    expect(stand.requests[0]).toMatchObject({
      model: 'stand-model',
      stream: true,
      messages,
      response_format: { type: 'json_schema' },
    })
  })

  it('asks again without structured output when the provider refuses it', async () => {
    stand.mode = 'no-response-format'
    const c = await gen().complete(messages)
    expect(c.structured).toBe(false)
    expect(parseDraft(c.text).ok).toBe(true)
    expect(stand.requests.map((r) => 'response_format' in r)).toEqual([true, false])
  })

  it('ends a hanging provider at the timeout, an error with its words, and a cancel at once', async () => {
    stand.mode = 'hang'
    await expect(gen({ timeoutMs: 300 }).complete(messages)).rejects.toThrow(
      new TextGenError('no answer within 0 s'),
    )
    stand.mode = 'http-500'
    await expect(gen().complete(messages)).rejects.toThrow(
      'the provider answered 500: the model is overloaded',
    )
    stand.mode = 'slow'
    const cancel = new AbortController()
    const run = gen().complete(messages, { signal: cancel.signal, onDelta: () => cancel.abort() })
    await expect(run).rejects.toThrow('cancelled')
  })

  it('runs at most the configured number of calls at once', async () => {
    for (const maxConcurrency of [1, 2]) {
      const own = await startTextgenStandIn({ mode: 'slow' })
      const g = new TextGenerator({
        baseUrl: own.url,
        apiKey: null,
        model: 'm',
        timeoutMs: 20_000,
        maxConcurrency,
      })
      await Promise.all([g.complete(messages), g.complete(messages), g.complete(messages)])
      await own.close()
      expect(own.requests).toHaveLength(3)
      expect(own.maxInFlight).toBe(maxConcurrency)
    }
  }, 30_000)
})
