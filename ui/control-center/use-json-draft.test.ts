/**
 * The glue between the commit flow and the draft (flushDraft): a commit waits until the server has my
 * text as typed. Run against the real draft machine; only its request is a stand-in we answer by hand.
 */
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { draftMachine } from '../../engine/control-center/machines/draft-machine'
import { type DraftActor, flushDraft } from './use-json-draft'

function draft() {
  const sent: { text: string; answer: (ok: boolean) => void }[] = []
  const actor = createActor(
    draftMachine.provide({
      actors: {
        saveDraft: fromPromise<{ errors: unknown[] }, { text: string }>(
          ({ input }) =>
            new Promise((resolve, reject) =>
              sent.push({
                text: input.text,
                answer: (ok) => (ok ? resolve({ errors: [] }) : reject(new Error('network down'))),
              }),
            ),
        ),
      },
    }),
  ).start()
  actor.send({
    type: 'LOADED',
    server: 'A',
    kept: null,
    carried: null,
    head: 'h1',
    hasDraft: false,
    errors: [],
    readOnly: false,
  })
  return { actor: actor as unknown as DraftActor, sent }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('flushDraft: a commit waits for my draft on the server', () => {
  it('a saved draft commits at once, with no request', async () => {
    const { actor, sent } = draft()
    expect(await flushDraft(actor)).toBe(true)
    expect(sent).toEqual([])
  })

  it('unsaved text is sent at once (not after the autosave wait), and then it commits', async () => {
    const { actor, sent } = draft()
    actor.send({ type: 'EDIT', text: 'B' })
    const flushed = flushDraft(actor)
    await tick()
    expect(sent.map((s) => s.text)).toEqual(['B'])
    sent[0].answer(true)
    expect(await flushed).toBe(true)
  })

  it('text typed while a save is out is saved too before the commit', async () => {
    const { actor, sent } = draft()
    actor.send({ type: 'EDIT', text: 'B' })
    actor.send({ type: 'SAVE' })
    actor.send({ type: 'EDIT', text: 'C' })
    const flushed = flushDraft(actor)
    sent[0].answer(true)
    await tick()
    expect(sent.map((s) => s.text)).toEqual(['B', 'C'])
    sent[1].answer(true)
    expect(await flushed).toBe(true)
  })

  it('a failed save stops the commit (the dialog says the draft could not be saved)', async () => {
    const { actor, sent } = draft()
    actor.send({ type: 'EDIT', text: 'B' })
    const flushed = flushDraft(actor)
    await tick()
    sent[0].answer(false)
    expect(await flushed).toBe(false)
    expect(actor.getSnapshot().value).toBe('failed')
  })
})
