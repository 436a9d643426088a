import { describe, expect, it } from 'vitest'
import { main, parseArgs, pathsReport, UsageError } from './paths'

describe('npm run paths', () => {
  it('lists a machine: its paths as readable lines, then coverage and the replay command', () => {
    const text = pathsReport(parseArgs(['lease']))
    expect(text).toMatch(/^lease: phone lease/)
    expect(text).toMatch(/^states: 4\/4 covered$/m)
    expect(text).toMatch(/^transitions: 9\/9 covered$/m)
    expect(text).toMatch(/^ {2}#1 .+ → \w+$/m)
    expect(text).toContain('ip known → requestPhone: 300 s lease → 4 s pass → waiting')
    expect(text).toMatch(/replay one: npm run paths -- lease --replay N$/)
  })

  it('gives a funnel as JSON: numbered paths with their steps and URLs, and coverage', () => {
    const report = JSON.parse(
      pathsReport(parseArgs(['quiz-otc', '--json', '--base', 'http://m10.localhost:3999'])),
    )
    expect(report).toMatchObject({
      kind: 'funnel',
      name: 'quiz-otc',
      brand: 'm10',
      pagePath: '/quiz/otc/{step?}',
    })
    const [first] = report.paths
    expect(first.n).toBe(1)
    expect(first.line).toBe(
      'zip(90210) → medicare(yes) → medicaid(yes) → name → contact → finished → /thank-you',
    )
    expect(first.steps[0]).toEqual({ event: 'SUBMIT', step: 'zip', values: { zipcode: '90210' } })
    expect(first.urls[0]).toBe('http://m10.localhost:3999/quiz/otc?utm_source=x')
    expect(first.urls.at(-1)).toBe('http://m10.localhost:3999/thank-you')
    expect(report.paths.some((p: { line: string }) => p.line.includes('medicare(no)'))).toBe(true)
    expect(report.paths.some((p: { line: string }) => p.line.includes('browser back'))).toBe(true)
    const { states, transitions } = report.coverage
    expect(states.covered).toBe(states.total)
    expect(transitions.covered + transitions.notCovered.length).toBe(transitions.total)
    expect(report.replay).toBe('npm run paths -- quiz-otc --replay N --base http://m10.localhost:3999')
  })

  it('replays a machine path on a simulated clock, printing each step', async () => {
    const lines: string[] = []
    expect(await main(['lease', '--replay', '2'], (l) => lines.push(l))).toBe(0)
    expect(lines[0]).toMatch(/^replaying lease path 2 on a simulated clock: /)
    expect(lines).toContain('  0. start (page load) → waitingForIp')
    expect(lines.at(-1)).toBe('ok: every step as the graph says, every promise kept')
  })

  it('refuses what it cannot do, saying why', () => {
    expect(() => parseArgs([])).toThrow(UsageError)
    expect(() => parseArgs(['lease', '--replay', 'x'])).toThrow('--replay takes a path number')
    expect(() => parseArgs(['quiz-otc', '--base', 'm10.localhost'])).toThrow('--base takes an origin')
    expect(() => pathsReport(parseArgs(['no-such-thing']))).toThrow(
      /no funnel or machine named "no-such-thing"\n {2}machines: lease, /,
    )
  })
})
