import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { buildMessages } from './prompt'
import {
  type GenerationOutput,
  runMachine,
  SERVER_STOPPED_ERROR,
  statusOf,
  type ValidationOutput,
} from './run-machine'

const draft = { title: 'T', description: 'D', carrier: 'Humana', slug: 'humana-t', body: ['# T'] }
const messages = buildMessages({ id: 'a', name: 'A', bio: 'B.' }, { topic: 't' }, [])

function run(
  answers: string[],
  validate: (n: number) => ValidationOutput = () => ({ errors: [], warnings: [] }),
) {
  const asked: number[] = []
  let validated = 0
  const machine = runMachine.provide({
    actors: {
      generate: fromPromise<GenerationOutput, { messages: typeof messages }>(async ({ input }) => {
        asked.push(input.messages.length)
        const text = answers.shift()
        if (text === undefined) throw new Error('the provider answered 500: overloaded')
        return { text, model: 'm', promptTokens: 10, completionTokens: 5 }
      }),
      validate: fromPromise<ValidationOutput, { draft: typeof draft }>(async () => validate(validated++)),
    },
  })
  const actor = createActor(machine, { input: { messages } }).start()
  actor.send({ type: 'START' })
  return { actor, asked }
}

describe('content-factory run machine', () => {
  it('succeeds with a valid draft on the first answer', async () => {
    const { actor, asked } = run([JSON.stringify(draft)], () => ({
      errors: [],
      warnings: ['line 1: guaranteed'],
    }))
    const s = await waitFor(actor, (x) => x.status === 'done')
    expect(s.value).toBe('succeeded')
    expect(s.context).toMatchObject({
      draft,
      attempt: 1,
      promptTokens: 10,
      completionTokens: 5,
      validation: { warnings: ['line 1: guaranteed'] },
    })
    expect(asked).toEqual([2])
  })

  it('repairs once: unusable output is sent back with its problems, and the second answer wins', async () => {
    const { actor, asked } = run(['not json', JSON.stringify(draft)])
    const s = await waitFor(actor, (x) => x.status === 'done')
    expect(s.value).toBe('succeeded')
    expect(s.context.attempt).toBe(2)
    expect(asked).toEqual([2, 4])
    expect(s.context.messages.at(-1)!.content).toContain('the answer is not JSON')
    expect(s.context.promptTokens).toBe(20)
  })

  it('fails after one repair, on a provider error, and a cancel stops it', async () => {
    const twice = run(['no', 'still no'])
    const a = await waitFor(twice.actor, (x) => x.status === 'done')
    expect(a.value).toBe('failed')
    expect(a.context.error).toMatch(/still unusable after a repair: the answer is not JSON/)
    const invalid = run([JSON.stringify(draft), JSON.stringify(draft)], () => ({
      errors: ['/title: too long'],
      warnings: [],
    }))
    expect((await waitFor(invalid.actor, (x) => x.status === 'done')).context.error).toMatch(
      /title: too long/,
    )
    const down = run([])
    const b = await waitFor(down.actor, (x) => x.status === 'done')
    expect([b.value, b.context.error]).toEqual(['failed', 'the provider answered 500: overloaded'])
    const slow = runMachine.provide({
      actors: {
        generate: fromPromise<GenerationOutput, { messages: typeof messages }>(() => new Promise(() => {})),
      },
    })
    const actor = createActor(slow, { input: { messages } }).start()
    actor.send({ type: 'START' })
    actor.send({ type: 'CANCEL' })
    expect(actor.getSnapshot().value).toBe('cancelled')
    expect(statusOf('deciding')).toBe('validating')
    // A server that stops mid-run ends it as failed, saying so (not "cancelled by staff").
    const stopped = createActor(slow, { input: { messages } }).start()
    stopped.send({ type: 'START' })
    stopped.send({ type: 'SERVER_STOP' })
    expect([stopped.getSnapshot().value, stopped.getSnapshot().context.error]).toEqual([
      'failed',
      SERVER_STOPPED_ERROR,
    ])
  })
})
