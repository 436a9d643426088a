import { useId, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import { useCc } from '../cc-context'
import { Empty, ErrorState, Loading, ScrollRegion } from '../States'
import { useResource } from '../use-resource'
import '../funnel/funnel-dropoff.css'

/** GET /api/cc/funnels/:id/dropoff (server/store/funnel-dropoff.ts, docs/decisions/0313). */
interface DropoffStep {
  step: string
  position: number | null
  reached: number
  submitted: number
  forward: Record<string, number>
  back: number
  completed: number
  left: number
}
interface DropoffTable {
  visitors: number
  steps: DropoffStep[]
}
interface DropoffReport extends DropoffTable {
  funnel: string
  pages: string[]
  since: string
  until: string
  by: string | null
  segments: ({ segment: string } & DropoffTable)[]
}

const DIMENSIONS = [
  { id: '', label: 'Nothing' },
  { id: 'brand', label: 'Brand' },
  { id: 'page', label: 'Page' },
  { id: 'source', label: 'Traffic source (utm_source)' },
  { id: 'device', label: 'Device' },
  { id: 'variant', label: 'Experiment variant' },
] as const

const DAY_MS = 86_400_000
/** The range shown first: the last 30 days, as the API's default. */
const DEFAULT_DAYS = 30

const day = (t: number) => new Date(t).toISOString().slice(0, 10)
const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)}%` : '—')
const count = (n: number) => n.toLocaleString('en-US')

/** `/funnels/{funnel}/dropoff`: where a funnel loses its visitors, from live traffic. */
export default function FunnelDropoffScreen() {
  const { route } = useCc()
  const id = route.params.funnel
  const q = new URLSearchParams(location.search)
  const [range, setRange] = useState(() => ({
    since: q.get('since') ?? day(Date.now() - DEFAULT_DAYS * DAY_MS),
    until: q.get('until') ?? day(Date.now() + DAY_MS),
    by: q.get('by') ?? '',
  }))
  const [form, setForm] = useState(range)
  const base = useId()
  const report = useResource<DropoffReport>(
    `/api/cc/funnels/${encodeURIComponent(id)}/dropoff?${new URLSearchParams({
      since: range.since,
      until: range.until,
      ...(range.by ? { by: range.by } : {}),
    })}`,
  )
  const apply = (e: React.FormEvent) => {
    e.preventDefault()
    setRange(form)
    const url = new URL(location.href)
    for (const [k, v] of Object.entries(form)) {
      if (v) url.searchParams.set(k, v)
      else url.searchParams.delete(k)
    }
    history.replaceState(history.state, '', url)
  }
  return (
    <div className="cc-page fw-dropoff" data-testid="funnel-dropoff">
      <div className="cc-title-row">
        <h1>
          Funnel <code>{id}</code>: drop-off
        </h1>
      </div>
      <form className="fw-dropoff-form" onSubmit={apply} aria-label="Range and split">
        <label htmlFor={`${base}-since`}>
          From
          <input
            id={`${base}-since`}
            type="date"
            value={form.since}
            required
            onChange={(e) => setForm({ ...form, since: e.target.value })}
          />
        </label>
        <label htmlFor={`${base}-until`}>
          Until (not included)
          <input
            id={`${base}-until`}
            type="date"
            value={form.until}
            required
            onChange={(e) => setForm({ ...form, until: e.target.value })}
          />
        </label>
        <label htmlFor={`${base}-by`}>
          Split by
          <select
            id={`${base}-by`}
            value={form.by}
            onChange={(e) => setForm({ ...form, by: e.target.value })}
          >
            {DIMENSIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          Show
        </button>
      </form>
      {report.error ? (
        <ErrorState message={report.error} retry={report.reload} />
      ) : !report.data ? (
        <Loading what="the drop-off" />
      ) : (
        <Report r={report.data} refreshing={report.loading} />
      )}
    </div>
  )
}

function Report({ r, refreshing }: { r: DropoffReport; refreshing: boolean }) {
  const dimension = DIMENSIONS.find((d) => d.id === (r.by ?? ''))?.label ?? r.by
  return (
    <div className="stack" aria-busy={refreshing}>
      <p className="fw-dropoff-summary">
        <strong data-testid="dropoff-visitors">{count(r.visitors)}</strong> visitors started this funnel
        between {r.since.slice(0, 10)} and {r.until.slice(0, 10)} (bots left out; submissions with and without
        JavaScript alike), on{' '}
        {r.pages.length ? (
          r.pages.map((p, i) => (
            <span key={p}>
              {i > 0 && ', '}
              <a href={ccPath('page', { page: p }, LIVE_BRANCH_NAME, { tab: 'funnel' })}>{p}</a>
            </span>
          ))
        ) : (
          <em>no page</em>
        )}
        .
      </p>
      {r.visitors === 0 ? (
        <Empty>No visitor reached a step of this funnel in this range. Try a longer range.</Empty>
      ) : (
        <>
          <FunnelChart t={r} title="All visitors" />
          <StepTable t={r} caption="Each step: who reached it, submitted it, and where they went next" />
          {r.segments.map((s) => (
            <section
              key={s.segment}
              className="stack fw-dropoff-segment"
              aria-label={`${dimension}: ${s.segment}`}
            >
              <h2>
                {dimension}: {s.segment}{' '}
                <span className="fw-dropoff-muted">
                  ({count(s.visitors)} {s.visitors === 1 ? 'visitor' : 'visitors'})
                </span>
              </h2>
              <FunnelChart t={s} title={`${dimension} ${s.segment}`} />
              <StepTable t={s} caption={`${dimension} ${s.segment}: each step`} />
            </section>
          ))}
        </>
      )}
    </div>
  )
}

/** Bars per step: reached (light) and submitted (dark), as wide as their share of the first step. */
function FunnelChart({ t, title }: { t: DropoffTable; title: string }) {
  const top = Math.max(1, ...t.steps.map((s) => s.reached))
  const summary = t.steps.map((s) => `${s.step}: ${s.reached} reached, ${s.submitted} submitted`).join('; ')
  return (
    <figure className="fw-dropoff-chart" role="img" aria-label={`Funnel chart, ${title}. ${summary}`}>
      {t.steps.map((s) => (
        <div className="fw-dropoff-bar-row" key={s.step} aria-hidden="true">
          <span className="fw-dropoff-bar-label">
            {s.position ?? '–'}. {s.step}
          </span>
          <span className="fw-dropoff-bar-track">
            <span
              className="fw-dropoff-bar fw-dropoff-reached"
              style={{ width: `${(100 * s.reached) / top}%` }}
            />
            <span
              className="fw-dropoff-bar fw-dropoff-submitted"
              style={{ width: `${(100 * s.submitted) / top}%` }}
            />
          </span>
          <span className="fw-dropoff-bar-value">
            {count(s.reached)} → {count(s.submitted)}
          </span>
        </div>
      ))}
      <figcaption className="fw-dropoff-legend" aria-hidden="true">
        <span className="fw-dropoff-key fw-dropoff-reached" /> reached{' '}
        <span className="fw-dropoff-key fw-dropoff-submitted" /> submitted
      </figcaption>
    </figure>
  )
}

function StepTable({ t, caption }: { t: DropoffTable; caption: string }) {
  return (
    <ScrollRegion label={caption}>
      <table className="cc-table cc-cards fw-dropoff-table" data-testid="dropoff-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Reached</th>
            <th scope="col">Submitted</th>
            <th scope="col">Went on to</th>
            <th scope="col">Back</th>
            <th scope="col">Completed</th>
            <th scope="col">Left</th>
          </tr>
        </thead>
        <tbody>
          {t.steps.map((s) => (
            <tr key={s.step} data-step={s.step}>
              <th scope="row">
                {s.position ?? '–'}. {s.step}
                {s.position === null && <span className="fw-dropoff-muted"> (no longer in the funnel)</span>}
              </th>
              <td data-label="Reached" data-value={s.reached}>
                {count(s.reached)}
              </td>
              <td data-label="Submitted" data-value={s.submitted}>
                <span>
                  {count(s.submitted)}{' '}
                  <span className="fw-dropoff-muted">({pct(s.submitted, s.reached)})</span>
                </span>
              </td>
              <td data-label="Went on to">
                {Object.keys(s.forward).length
                  ? Object.entries(s.forward)
                      .map(([to, n]) => `${to} ${count(n)}`)
                      .join(', ')
                  : '—'}
              </td>
              <td data-label="Back" data-value={s.back}>
                {count(s.back)}
              </td>
              <td data-label="Completed" data-value={s.completed}>
                {count(s.completed)}
              </td>
              <td data-label="Left" data-value={s.left}>
                <span>
                  {count(s.left)} <span className="fw-dropoff-muted">({pct(s.left, s.reached)})</span>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
