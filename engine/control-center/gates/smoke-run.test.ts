import { describe, expect, it } from 'vitest'
import { edited, repositoryFiles, snapshotOf } from '../../../tests/fixtures/edited-definitions'
import type { Snapshot } from '../../snapshot/types'
import { pageFacts } from './changed-funnels'
import { budgetOf, FunnelExplorer } from './funnel-explorer'
import { replayOnMachine, smokeRun } from './smoke-run'

const live = snapshotOf(repositoryFiles)

describe('smoke run', () => {
  it('replays the shortest paths of every funnel of the repository through the real machine', async () => {
    expect(await smokeRun(null, live)).toEqual([])
  })

  it('replays a changed funnel with a go-to-page exit and a go-to-step jump', async () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      d.steps[1].overrides = {
        onSubmit: {
          type: 'go-to-step',
          step: 'contact',
          when: { type: 'answer-equals', field: 'haveMedicare', value: false },
        },
      }
      d.steps[2].overrides = {
        onSubmit: {
          type: 'go-to-page',
          path: '/privacy',
          when: { type: 'answer-equals', field: 'haveMedicaid', value: false },
        },
      }
    })
    expect(await smokeRun(live, next)).toEqual([])
    const f = next.funnels.get('quiz-otc')!
    const ends = new FunnelExplorer(f, pageFacts(next.pages.get('quiz-otc'), f)).explore(
      budgetOf(3_000),
    ).shortest
    expect(ends.map((p) => p.end)).toEqual(
      expect.arrayContaining([
        { kind: 'finished', to: '/thank-you' },
        { kind: 'left', to: '/privacy' },
      ]),
    )
  })

  it('tells what the machine did differently from the path', async () => {
    const f = live.funnels.get('quiz-otc')!
    const page = pageFacts(live.pages.get('quiz-otc'), f)
    const [path] = new FunnelExplorer(f, page).explore(budgetOf(3_000)).shortest
    expect(await replayOnMachine(f, page, path)).toBeNull()
    expect(await replayOnMachine(f, page, { ...path, end: { kind: 'left', to: '/elsewhere' } })).toBe(
      'left for /thank-you, not /elsewhere',
    )
    expect(await replayOnMachine(f, page, { ...path, moves: path.moves.slice(1) })).toMatch(
      /^showed step "zip" where step "medicare" was expected$/,
    )
  })

  it('refuses publishing a funnel whose destination the machine will not navigate to, with the path', async () => {
    const page = live.pages.get('quiz-otc')!
    const broken: Snapshot = {
      ...live,
      pages: new Map(
        [...live.pages].map(([k, p]) => [
          k,
          k === 'quiz-otc' ? { ...page, destination: 'javascript:alert(1)' } : p,
        ]),
      ),
    }
    const errors = await smokeRun(null, broken)
    const mine = errors.filter((e) => e.message.includes('quiz-otc'))
    expect(mine.length).toBeGreaterThan(0)
    expect(mine[0]).toMatchObject({ file: 'definitions/funnels/quiz-otc.json' })
    expect(mine.map((e) => e.message)).toContain(
      'smoke run: path zip→medicare→medicaid→name→contact to a refused exit failed: ends refused (the machine would not navigate there) (pages quiz-otc)',
    )
  })
})
