import { useId } from 'react'
import { type FlowEdge, type FunnelFlow, targetWords } from '../../../engine/funnel/funnel-flow'

const NODE_W = 190
const NODE_H = 34
const ROW = 58
const LANE = 22
const TOP = 12
const LEFT = 8

/** An edge's identity across two versions of a funnel: by step names, not positions. */
export const edgeKey = (e: FlowEdge, flow: FunnelFlow) =>
  `${flow.steps[e.from]?.name}|${e.on}|${e.when ?? (e.fallback ? 'otherwise' : 'always')}|${targetWords(e.to, flow.steps)}`

interface Drawn {
  edge: FlowEdge
  flow: FunnelFlow
  status: 'same' | 'added' | 'removed'
  letter: string
}

/**
 * The funnel as a vertical list of steps with jump arcs (CONTROL-CENTER §6: no graph library): the
 * next-step edges straight down, conditional jumps and exits as lettered arcs on the right, explained
 * in words below. With `before`, edges added since are green and edges removed are dashed red.
 */
export function FlowGraph({ flow, before }: { flow: FunnelFlow; before?: FunnelFlow | null }) {
  const titleId = useId()
  const exits = [
    ...new Set(flow.edges.filter((e) => e.to.kind !== 'step').map((e) => targetWords(e.to, flow.steps))),
  ]
  // Terminal nodes follow the steps: the destination first, then other pages in order of appearance.
  exits.sort((a, b) => (a === 'the destination' ? -1 : b === 'the destination' ? 1 : 0))
  const rowOf = (e: FlowEdge, f: FunnelFlow): number => {
    if (e.to.kind === 'step') {
      const name = f.steps[e.to.index]?.name
      const i = flow.steps.findIndex((s) => s.name === name)
      return i >= 0 ? i : e.to.index
    }
    const at = exits.indexOf(targetWords(e.to, f.steps))
    return flow.steps.length + (at >= 0 ? at : 0)
  }
  const fromRow = (e: FlowEdge, f: FunnelFlow) => {
    const name = f.steps[e.from]?.name
    const i = flow.steps.findIndex((s) => s.name === name)
    return i >= 0 ? i : e.from
  }
  const now = new Set(flow.edges.map((e) => edgeKey(e, flow)))
  const then = before ? new Set(before.edges.map((e) => edgeKey(e, before))) : null
  const drawn: Drawn[] = flow.edges.map((edge) => ({
    edge,
    flow,
    status: then && !then.has(edgeKey(edge, flow)) ? 'added' : 'same',
    letter: '',
  }))
  if (before)
    for (const edge of before.edges)
      if (!now.has(edgeKey(edge, before)) && flow.steps.some((s) => s.name === before.steps[edge.from]?.name))
        drawn.push({ edge, flow: before, status: 'removed', letter: '' })
  // Removed exits that no longer exist still need a node to point at.
  for (const d of drawn)
    if (d.status === 'removed' && d.edge.to.kind !== 'step') {
      const w = targetWords(d.edge.to, d.flow.steps)
      if (!exits.includes(w)) exits.push(w)
    }
  let lane = 0
  let letter = 0
  const arcs = drawn.map((d) => {
    const a = fromRow(d.edge, d.flow)
    const b = rowOf(d.edge, d.flow)
    const straight = b === a + 1 && d.edge.fallback && d.status !== 'removed'
    if (!straight) d.letter = String.fromCharCode(97 + (letter++ % 26))
    return { d, a, b, straight, lane: straight ? 0 : ++lane }
  })
  const rows = flow.steps.length + exits.length
  const width = LEFT + NODE_W + 30 + lane * LANE + 20
  const height = TOP + rows * ROW
  const cx = LEFT + NODE_W / 2
  const right = LEFT + NODE_W
  const yMid = (r: number) => TOP + r * ROW + NODE_H / 2
  const labelled = arcs.filter((x) => !x.straight)
  return (
    <figure className="fw-flow">
      <div className="fw-flow-scroll">
        <svg
          viewBox={`0 0 ${width} ${height}`}
          width={width}
          height={height}
          role="img"
          aria-labelledby={titleId}
          data-testid="flow-graph"
        >
          <title id={titleId}>
            Flow of the funnel: {flow.steps.length} steps, {flow.edges.length} ways between them
          </title>
          <defs>
            <marker
              id={`${titleId}-arrow`}
              viewBox="0 0 8 8"
              refX="7"
              refY="4"
              markerWidth="7"
              markerHeight="7"
              orient="auto"
            >
              <path d="M0,0 L8,4 L0,8 z" fill="currentColor" />
            </marker>
          </defs>
          {arcs.map(({ d, a, b, straight, lane: l }, k) => {
            const cls = `fw-edge fw-edge-${d.status}`
            if (straight)
              return (
                <line
                  key={`next${a}`}
                  className={cls}
                  x1={cx}
                  y1={TOP + a * ROW + NODE_H}
                  x2={cx}
                  y2={TOP + b * ROW - 2}
                  markerEnd={`url(#${titleId}-arrow)`}
                />
              )
            const x = right + 16 + l * LANE
            const y1 = yMid(a)
            const y2 = yMid(b)
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the drawing is rebuilt whole on every change; positions are the identity
              <g key={k} className={cls} data-edge-status={d.status}>
                <path
                  d={`M${right},${y1} C${x},${y1} ${x},${y1} ${x},${(y1 + y2) / 2} S${x},${y2} ${right + 2},${y2}`}
                  fill="none"
                  markerEnd={`url(#${titleId}-arrow)`}
                />
                <circle cx={x} cy={(y1 + y2) / 2} r="8" className="fw-edge-badge" />
                <text x={x} y={(y1 + y2) / 2 + 4} textAnchor="middle" className="fw-edge-letter">
                  {d.letter}
                </text>
              </g>
            )
          })}
          {flow.steps.map((s, i) => {
            const flags = [
              flow.unreachable.includes(i) ? 'unreachable' : null,
              flow.deadEnds.includes(i) ? 'dead end' : null,
            ].filter(Boolean)
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the drawing is rebuilt whole on every change; positions are the identity
              <g key={`s${s.name}:${i}`} className={`fw-node${flags.length ? ' fw-node-problem' : ''}`}>
                <rect x={LEFT} y={TOP + i * ROW} width={NODE_W} height={NODE_H} rx="6" />
                <text x={LEFT + 10} y={TOP + i * ROW + 22}>
                  {i + 1}. {s.name}
                  {flags.length ? ` (${flags.join(', ')})` : ''}
                </text>
              </g>
            )
          })}
          {exits.map((w, k) => (
            <g key={`e${w}`} className="fw-node fw-node-exit">
              <rect x={LEFT} y={TOP + (flow.steps.length + k) * ROW} width={NODE_W} height={NODE_H} rx="17" />
              <text x={LEFT + 10} y={TOP + (flow.steps.length + k) * ROW + 22}>
                {w === 'the destination' ? 'Destination (finish)' : w}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <figcaption>
        {labelled.length === 0 ? (
          <p className="muted">Every step leads to the next one; the last one finishes.</p>
        ) : (
          <ul className="fw-flow-legend" aria-label="Jumps and exits">
            {labelled.map(({ d }) => (
              <li key={`${d.letter}${d.status}`} className={`fw-legend-${d.status}`}>
                <span className="fw-legend-letter">{d.letter}</span>{' '}
                {d.status === 'added' ? (
                  <strong>Added: </strong>
                ) : d.status === 'removed' ? (
                  <strong>Removed: </strong>
                ) : null}
                From <strong>{d.flow.steps[d.edge.from]?.name}</strong>
                {d.edge.on === 'enter' ? ' (on entering)' : ''} to {targetWords(d.edge.to, d.flow.steps)}{' '}
                {d.edge.when ? `if ${d.edge.when}` : d.edge.fallback ? 'otherwise' : 'always'}
              </li>
            ))}
          </ul>
        )}
        {flow.missingTargets.length > 0 && (
          <p className="cc-form-error">
            {flow.missingTargets
              .map(
                (m) =>
                  `Step ${flow.steps[m.from]?.name} goes to step "${m.step}", which this funnel does not have.`,
              )
              .join(' ')}
          </p>
        )}
      </figcaption>
    </figure>
  )
}
