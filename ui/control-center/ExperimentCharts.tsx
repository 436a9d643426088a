/**
 * The experiment screen's charts, drawn in inline SVG at the container's pixel width (text stays
 * readable on a phone): a lift interval bar, daily exposures per variant, per-step reach per variant.
 * Each chart is an image with a label and a short description, and its numbers are in a table too.
 */
import { type RefObject, useEffect, useId, useRef, useState } from 'react'
import { pct } from './experiment-format'

/** An experiment status as a chip (draft, running, paused, finished). */
export function StatusChip({ status }: { status: string | null | undefined }) {
  return (
    <span className={`cc-chip cc-exp-status cc-exp-status-${status ?? 'unknown'}`}>
      {status ?? 'invalid'}
    </span>
  )
}

/** Variant colours, control first (distinct, ≥ 4.5:1 on white). */
export const VARIANT_COLORS = ['#1f5fbf', '#b4480c', '#15803d', '#7e22ce', '#a1126b', '#0f766e']
export const variantColor = (i: number) => VARIANT_COLORS[i % VARIANT_COLORS.length]

function useWidth(ref: RefObject<HTMLElement | null>, fallback = 600): number {
  const [width, setWidth] = useState(fallback)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const measure = () => setWidth(Math.max(200, Math.floor(el.getBoundingClientRect().width)))
    measure()
    const o = new ResizeObserver(measure)
    o.observe(el)
    return () => o.disconnect()
  }, [ref])
  return width
}

/**
 * The relative lift's 95 % interval on a shared axis (−`scale` … +`scale`): red left of zero, green
 * right of it, the point estimate as a tick.
 */
export function LiftBar({
  lift,
  interval,
  scale,
}: {
  lift: number
  interval: [number, number]
  scale: number
}) {
  const w = 160
  const h = 22
  const x = (v: number) => Math.max(2, Math.min(w - 2, w / 2 + (v / scale) * (w / 2 - 4)))
  const [lo, hi] = interval
  const label = `Lift ${pct(lift, 1, true)}, 95 % interval ${pct(lo, 1, true)} to ${pct(hi, 1, true)}`
  return (
    <svg
      className="cc-exp-liftbar"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      <rect x={0} y={h / 2 - 1} width={w} height={2} fill="#d6d9de" />
      {lo < 0 && (
        <rect x={x(lo)} y={5} width={x(Math.min(hi, 0)) - x(lo)} height={h - 10} fill="#d93025" rx={2} />
      )}
      {hi > 0 && (
        <rect
          x={x(Math.max(lo, 0))}
          y={5}
          width={x(hi) - x(Math.max(lo, 0))}
          height={h - 10}
          fill="#188038"
          rx={2}
        />
      )}
      <line x1={w / 2} x2={w / 2} y1={1} y2={h - 1} stroke="#3c4043" strokeWidth={1} />
      <rect x={x(lift) - 1.5} y={2} width={3} height={h - 4} fill="#202124" />
    </svg>
  )
}

interface Series {
  id: string
  color: string
  points: { x: string; y: number }[]
}

/** A small line chart of several series over shared x labels (days). */
export function LineChart({
  series,
  xs,
  label,
  yLabel,
}: {
  series: Series[]
  xs: string[]
  label: string
  yLabel: string
}) {
  const box = useRef<HTMLDivElement>(null)
  const width = useWidth(box)
  const descId = useId()
  const h = 200
  const m = { l: 44, r: 12, t: 12, b: 28 }
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.y)))
  const yTicks = niceTicks(max)
  const top = yTicks[yTicks.length - 1]
  const px = (i: number) =>
    m.l + (xs.length === 1 ? (width - m.l - m.r) / 2 : (i / (xs.length - 1)) * (width - m.l - m.r))
  const py = (v: number) => m.t + (1 - v / top) * (h - m.t - m.b)
  const every = Math.max(1, Math.ceil(xs.length / Math.max(2, Math.floor((width - m.l) / 70))))
  return (
    <div ref={box} className="cc-exp-chart">
      <svg width={width} height={h} role="img" aria-label={label} aria-describedby={descId}>
        <title>{label}</title>
        <desc id={descId}>
          {series.map((s) => `${s.id}: ${s.points.map((p) => `${p.x} ${p.y}`).join(', ')}`).join('; ')}
        </desc>
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={m.l} x2={width - m.r} y1={py(t)} y2={py(t)} stroke="#e3e5e8" />
            <text x={m.l - 6} y={py(t) + 4} textAnchor="end" className="cc-exp-axis">
              {t.toLocaleString('en-US')}
            </text>
          </g>
        ))}
        {xs.map((d, i) =>
          i % every === 0 || i === xs.length - 1 ? (
            <text key={d} x={px(i)} y={h - 8} textAnchor="middle" className="cc-exp-axis">
              {d.slice(5)}
            </text>
          ) : null,
        )}
        <text
          x={12}
          y={m.t + (h - m.t - m.b) / 2}
          className="cc-exp-axis"
          transform={`rotate(-90 12 ${m.t + (h - m.t - m.b) / 2})`}
          textAnchor="middle"
        >
          {yLabel}
        </text>
        {series.map((s) => {
          const pts = xs.map((d, i) => [px(i), py(s.points.find((p) => p.x === d)?.y ?? 0)] as const)
          return (
            <g key={s.id}>
              <polyline
                points={pts.map((p) => p.join(',')).join(' ')}
                fill="none"
                stroke={s.color}
                strokeWidth={2}
              />
              {pts.map(([x, y], i) => (
                <circle key={xs[i]} cx={x} cy={y} r={3} fill={s.color} />
              ))}
            </g>
          )
        })}
      </svg>
    </div>
  )
}

/** Bars grouped by stage or day, one bar per variant, on a 0…`max` axis with the given ticks. */
export function GroupedBars({
  groups,
  ids,
  value,
  ticks,
  format,
  label,
  desc,
}: {
  groups: { key: string; label: string; short: string }[]
  ids: string[]
  value: (group: number, variant: number) => number
  ticks: number[]
  format: (v: number) => string
  label: string
  desc: string
}) {
  const box = useRef<HTMLDivElement>(null)
  const width = useWidth(box)
  const descId = useId()
  const h = 210
  const m = { l: 48, r: 8, t: 12, b: 30 }
  const top = ticks[ticks.length - 1] || 1
  const groupW = (width - m.l - m.r) / Math.max(1, groups.length)
  const barW = Math.max(3, Math.min(28, (groupW - 8) / Math.max(1, ids.length)))
  const py = (v: number) => m.t + (1 - v / top) * (h - m.t - m.b)
  const narrow = groups.some((g) => g.label.length * 6.5 > groupW - 4)
  const every = Math.max(1, Math.ceil((groups.length * 40) / Math.max(40, width - m.l - m.r)))
  return (
    <div ref={box} className="cc-exp-chart">
      <svg width={width} height={h} role="img" aria-label={label} aria-describedby={descId}>
        <title>{label}</title>
        <desc id={descId}>{desc}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={m.l} x2={width - m.r} y1={py(t)} y2={py(t)} stroke="#e3e5e8" />
            <text x={m.l - 6} y={py(t) + 4} textAnchor="end" className="cc-exp-axis">
              {format(t)}
            </text>
          </g>
        ))}
        {groups.map((g, gi) => {
          const x0 = m.l + gi * groupW + (groupW - barW * ids.length) / 2
          return (
            <g key={g.key}>
              {ids.map((id, vi) => {
                const v = value(gi, vi)
                return (
                  <rect
                    key={id}
                    x={x0 + vi * barW}
                    y={py(v)}
                    width={barW - 1}
                    height={Math.max(0, py(0) - py(v))}
                    fill={variantColor(vi)}
                  />
                )
              })}
              {gi % every === 0 && (
                <text
                  x={m.l + gi * groupW + groupW / 2}
                  y={h - 10}
                  textAnchor="middle"
                  className="cc-exp-axis"
                >
                  {narrow ? g.short : g.label}
                </text>
              )}
            </g>
          )
        })}
      </svg>
    </div>
  )
}

/** Round tick values from 0 up to at least `max`. */
export function niceTicks(max: number): number[] {
  const raw = max / 4
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag
  const ticks = []
  for (let v = 0; v < max + step; v += step) ticks.push(Math.round(v * 1e6) / 1e6)
  return ticks.length > 1 ? ticks : [0, 1]
}

export function Legend({ ids }: { ids: string[] }) {
  return (
    <ul className="cc-exp-legend">
      {ids.map((id, i) => (
        <li key={id}>
          <span className="cc-exp-swatch" style={{ background: variantColor(i) }} aria-hidden="true" />
          {id}
        </li>
      ))}
    </ul>
  )
}
