import { useEffect, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type {
  ExperimentDimension,
  ExperimentListRow,
  ExperimentResults,
  ExperimentVariant,
  VariantResult,
} from '../../../schemas/generated/cc-answers/experiments'
import { ApiError, branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { DailyExposures, LiftBar, StatusChip, StepReach } from '../ExperimentCharts'
import { count, daysBetween, pct, pValue, weightsHealth } from '../experiment-format'
import { FileDetail } from '../FileDetail'
import { Empty, ErrorState, FormError, Loading, laTime, ScrollRegion, shortSha } from '../States'
import { Tabs } from '../Tabs'
import { useResource } from '../use-resource'
import '../experiments.css'

type Decision = { decision: 'start' | 'pause' | 'finish' } | { decision: 'ship'; variant: string }

const DIMENSIONS: { id: ExperimentDimension; label: string }[] = [
  { id: 'brand', label: 'Brand' },
  { id: 'paid', label: 'Paid or organic' },
  { id: 'utm_source', label: 'utm_source' },
]

/** `/experiments/{experiment}?branch=B`: results from live, decisions as commits on B, the definition. */
export default function ExperimentScreen() {
  const { branch: b, route, revision } = useCc()
  const branch = b as string
  const id = route.params.experiment
  const path = `definitions/experiments/${id}.json`
  const q = new URLSearchParams(location.search)
  const [tab, setTab] = useState(() => q.get('tab') ?? 'results')
  const [phase, setPhase] = useState<number | null>(q.get('phase') ? Number(q.get('phase')) : null)
  const [refreshes, setRefreshes] = useState(0)
  const select = (t: string) => {
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  const list = useResource<{ head: string; experiments: ExperimentListRow[] }>(
    `/api/cc/experiments?branch=${encodeURIComponent(branch)}`,
    revision,
  )
  const results = useResource<ExperimentResults>(
    `/api/cc/experiments/${encodeURIComponent(id)}/results?${new URLSearchParams({
      ...(phase ? { phase: String(phase) } : {}),
      ...(refreshes ? { refresh: String(refreshes) } : {}),
    })}`,
    revision,
  )
  const row = list.data?.experiments.find((e) => e.id === id)
  const notLive = results.error !== null && /not published|unknown experiment/.test(results.error)
  return (
    <div className="cc-page cc-exp">
      <div className="cc-title-row">
        <h1>
          Experiment <code>{id}</code>
        </h1>
        <a className="button cc-small" href={ccPath('experiments', {}, branch)}>
          All experiments
        </a>
      </div>
      {list.error ? (
        <ErrorState message={list.error} retry={list.reload} />
      ) : !list.data ? (
        <Loading what="experiment" />
      ) : !row ? (
        <Empty>
          There is no experiment “{id}” on branch {branch}.{' '}
          <a href={ccPath('experiments', {}, branch)}>See all experiments</a>.
        </Empty>
      ) : (
        <>
          <Header row={row} results={results.data} phase={phase} onPhase={setPhase} />
          <Decisions row={row} branch={branch} head={list.data.head} results={results.data} />
          <Tabs
            label="Experiment"
            selected={tab}
            onSelect={select}
            tabs={[
              { id: 'results', label: 'Results' },
              { id: 'definition', label: 'Definition' },
              { id: 'preview', label: 'Preview' },
            ]}
          >
            {tab === 'results' ? (
              notLive ? (
                <Empty>
                  Not published yet: results appear once the experiment is live (Start it on a branch, then
                  publish).
                </Empty>
              ) : results.error ? (
                <ErrorState message={results.error} retry={results.reload} />
              ) : !results.data ? (
                <Loading what="results" />
              ) : (
                <Results
                  r={results.data}
                  refreshing={results.loading}
                  onRefresh={() => setRefreshes((n) => n + 1)}
                />
              )
            ) : tab === 'definition' ? (
              <FileDetail branch={branch} path={path} />
            ) : (
              <Previews branch={branch} row={row} results={results.data} />
            )}
          </Tabs>
        </>
      )}
    </div>
  )
}

function Header({
  row,
  results: r,
  phase,
  onPhase,
}: {
  row: ExperimentListRow
  results: ExperimentResults | null
  phase: number | null
  onPhase: (n: number | null) => void
}) {
  const current = r?.phases.find((p) => p.n === r.phase)
  const days = current ? daysBetween(current.from, current.to) : null
  const users = r ? r.variants.reduce((s, v) => s + v.users, 0) : null
  return (
    <section className="cc-card cc-exp-header" aria-label="About this experiment">
      <p className="cc-exp-hypothesis">{row.description}</p>
      <dl className="cc-exp-facts">
        <div>
          <dt>Page</dt>
          <dd>{row.page ?? '—'}</dd>
        </div>
        <div>
          <dt>Brands</dt>
          <dd>
            <span className="cc-chips">
              {(row.brands ?? []).map((x) => (
                <span key={x} className="cc-chip">
                  {x}
                </span>
              ))}
            </span>
          </dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusChip status={row.status} />
            {row.liveStatus !== row.status && (
              <span className="muted cc-exp-small"> live: {row.liveStatus ?? 'not published'}</span>
            )}
          </dd>
        </div>
        <div className="cc-exp-fact-wide">
          <dt>
            <label htmlFor="cc-exp-phase">Phase</label>
          </dt>
          <dd>
            {r ? (
              <select
                id="cc-exp-phase"
                value={phase ?? r.phase}
                onChange={(e) => {
                  const n = Number(e.target.value)
                  onPhase(n === r.phases.length ? null : n)
                }}
              >
                {r.phases.map((p) => (
                  <option key={p.n} value={p.n}>
                    {p.n} · {p.status}
                    {p.from ? ` · from ${p.from.slice(0, 10)}` : ''}
                    {p.n === r.phases.length ? ' (current)' : ''}
                  </option>
                ))}
              </select>
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>Days running</dt>
          <dd>{days === null ? '—' : days}</dd>
        </div>
        <div>
          <dt>Total users</dt>
          <dd data-testid="exp-total-users">{users === null ? '—' : count(users)}</dd>
        </div>
      </dl>
    </section>
  )
}

/** Start, Pause, Finish, Ship variant X (commits on the branch); the emergency pause for publishers. */
function Decisions({
  row,
  branch,
  head,
  results,
}: {
  row: ExperimentListRow
  branch: string
  head: string
  results: ExperimentResults | null
}) {
  const api = useApi()
  const { may, offerBranch, changed } = useCc()
  const [asking, setAsking] = useState<Decision | 'emergency' | null>(null)
  const [done, setDone] = useState<{ text: string; commit?: string; branch?: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [reason, setReason] = useState('')
  const status = row.status
  const variants = row.variants ?? []
  const defs = results?.experiment.variants ?? []
  const winner = results?.variants.find((v) => v.vsControl && v.vsControl.chanceToWin >= 0.95)
  const decide = (d: Decision) => (branch === LIVE_BRANCH_NAME ? offerBranch() : setAsking(d))
  const run = async () => {
    if (!asking) return
    setBusy(true)
    setError(null)
    try {
      if (asking === 'emergency') {
        const r = await api<{ branch: string; commit: string }>(
          'POST',
          `/api/cc/experiments/${encodeURIComponent(row.id)}/emergency-pause`,
          reason.trim() ? { reason: reason.trim() } : {},
        )
        setDone({ text: `Paused live now (branch ${r.branch}, published).`, commit: r.commit })
      } else {
        const r = await api<{ commit: string }>(
          'POST',
          branchApi(branch, `/experiments/${encodeURIComponent(row.id)}/decisions`),
          { ...asking, expectedHead: head },
        )
        setDone({
          text: `${label(asking)}: committed on ${branch}. Publish the branch to make it live.`,
          commit: r.commit,
          branch,
        })
      }
      setAsking(null)
      changed()
    } catch (e) {
      setError(e instanceof ApiError ? e.message : (e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  if (!may('branch.edit') && !may('publish')) return null
  const can = may('branch.edit')
  return (
    <section className="cc-exp-decisions" aria-label="Decisions">
      <div className="cc-row">
        {can && (status === 'draft' || status === 'paused') && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => decide({ decision: 'start' })}
          >
            {status === 'paused' ? 'Resume' : 'Start'}
          </button>
        )}
        {can && status === 'running' && (
          <button type="button" className="button" onClick={() => decide({ decision: 'pause' })}>
            Pause
          </button>
        )}
        {can && (status === 'running' || status === 'paused') && (
          <button type="button" className="button" onClick={() => decide({ decision: 'finish' })}>
            Finish
          </button>
        )}
        {can &&
          status !== 'finished' &&
          variants
            .filter((v) => v.id !== 'control')
            .map((v) => (
              <button
                key={v.id}
                type="button"
                className={winner?.id === v.id ? 'button button-primary' : 'button'}
                onClick={() => decide({ decision: 'ship', variant: v.id })}
              >
                Ship variant {v.id}
              </button>
            ))}
        {may('publish') && row.liveStatus === 'running' && (
          <button type="button" className="button cc-exp-danger" onClick={() => setAsking('emergency')}>
            Emergency pause (live)
          </button>
        )}
      </div>
      {done && (
        <p className="cc-banner" role="status">
          {done.text} {done.commit && <code>{shortSha(done.commit)}</code>}{' '}
          {done.branch && <a href={ccPath('branch', { branch: done.branch })}>Review and publish</a>}
        </p>
      )}
      <Dialog
        open={asking !== null}
        title={
          asking === 'emergency' ? 'Pause this experiment on live now?' : asking ? `${label(asking)}?` : ''
        }
        onClose={() => {
          setAsking(null)
          setError(null)
        }}
      >
        {asking && (
          <div className="stack">
            {asking === 'emergency' ? (
              <>
                <p>
                  Every visitor sees the page as written from the next request. This creates a branch from
                  live, commits <code>status: paused</code> and publishes it at once (the checks still run).
                </p>
                <label className="cc-field">
                  <span>Reason (for the log)</span>
                  <input
                    value={reason}
                    onChange={(e) => setReason(e.target.value)}
                    placeholder="Broken form"
                  />
                </label>
              </>
            ) : (
              <p>{explain(asking, row, defs)}</p>
            )}
            <FormError message={error} />
            <div className="cc-row">
              <button
                type="button"
                className={asking === 'emergency' ? 'button cc-exp-danger' : 'button button-primary'}
                disabled={busy}
                onClick={run}
              >
                {busy
                  ? 'Working…'
                  : asking === 'emergency'
                    ? 'Pause live now'
                    : `${label(asking)} on ${branch}`}
              </button>
              <button type="button" className="button" onClick={() => setAsking(null)}>
                Cancel
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </section>
  )
}

function label(d: Decision): string {
  return d.decision === 'ship'
    ? `Ship variant ${d.variant}`
    : { start: 'Start', pause: 'Pause', finish: 'Finish' }[d.decision]
}

function explain(d: Decision, row: ExperimentListRow, defs: ExperimentVariant[]): string {
  if (d.decision === 'start')
    return `Commits status “running” on the branch. Once published, visitors of ${row.page} are split ${(row.variants ?? []).map((v) => `${v.id} ${v.weight}%`).join(' / ')} and a new results phase begins.`
  if (d.decision === 'pause')
    return 'Commits status “paused”. Once published, every visitor sees the page as written; results keep the data so far.'
  if (d.decision !== 'ship')
    return 'Commits status “finished” without changing the page. Once published, every visitor sees the page as written.'
  const o = defs.find((v) => v.id === d.variant)?.overrides ?? {}
  const fields = Object.entries(o).map(
    ([k, v]) => `${k}: ${typeof v === 'string' ? `“${v}”` : JSON.stringify(v)}`,
  )
  return `Copies the variant into page ${row.page} (${fields.join('; ') || 'no changes'}) and sets the experiment to finished, in one commit. Once published, every visitor sees it.`
}

function Results({
  r,
  refreshing,
  onRefresh,
}: {
  r: ExperimentResults
  refreshing: boolean
  onRefresh: () => void
}) {
  const total = r.variants.reduce((s, v) => s + v.users, 0)
  const exposed = total + r.multipleExposures + r.bots
  const srmBad = r.srm.mismatch
  const scale = Math.max(
    0.1,
    ...r.variants.flatMap((v) => (v.vsControl ? v.vsControl.interval.map(Math.abs) : [])),
  )
  return (
    <div className="stack">
      {srmBad && (
        <div className="cc-banner cc-banner-error" role="alert" data-testid="srm-banner">
          <strong>Sample ratio mismatch ({pValue(r.srm.pValue)}, below 0.001).</strong> The split of users is
          not what the weights promise ({r.variants.map((v) => `${v.id} ${v.weight}%`).join(' / ')}), so
          something sends or counts visitors unevenly. Do not trust these results until the cause is found.
        </div>
      )}
      <ul className="cc-exp-health" aria-label="Health">
        <li className={srmBad ? 'cc-exp-bad' : 'cc-exp-good'} data-testid="health-srm">
          <span className="cc-exp-health-k">Sample ratio</span>
          <span className="cc-exp-health-v">{srmBad ? 'Mismatch' : 'OK'}</span>
          <span className="muted">{pValue(r.srm.pValue)}</span>
        </li>
        <li className={r.multipleExposures > 0 ? 'cc-exp-warn' : ''} data-testid="health-multiple">
          <span className="cc-exp-health-k">Multiple exposures</span>
          <span className="cc-exp-health-v">{count(r.multipleExposures)}</span>
          <span className="muted">{exposed ? pct(r.multipleExposures / exposed) : '0.0%'} excluded</span>
        </li>
        <li data-testid="health-bots">
          <span className="cc-exp-health-k">Bots excluded</span>
          <span className="cc-exp-health-v">{count(r.bots)}</span>
          <span className="muted">{exposed ? pct(r.bots / exposed) : '0.0%'}</span>
        </li>
        <WeightsHealth r={r} />
        <li>
          <span className="cc-exp-health-k">Data as of</span>
          <span className="cc-exp-health-v cc-exp-small">{laTime(r.computedAt)}</span>
          <button type="button" className="cc-exp-refresh" onClick={onRefresh} disabled={refreshing}>
            {refreshing ? 'Refreshing…' : 'Refresh now'}
          </button>
        </li>
      </ul>
      {!r.enoughData && (
        <p className="cc-banner" data-testid="not-enough-data">
          <strong>Not enough data</strong> — no verdict until every variant has at least 100 users and 10
          leads.
        </p>
      )}
      <ScrollRegion label="Results by variant">
        <table
          className={`cc-table cc-cards cc-exp-results${srmBad ? ' cc-exp-greyed' : ''}`}
          data-testid="results-table"
        >
          <thead>
            <tr>
              <th scope="col">Variant</th>
              <th scope="col" className="cc-num">
                Users
              </th>
              <th scope="col" className="cc-num">
                Leads
              </th>
              <th scope="col" className="cc-num">
                Conversion
              </th>
              <th scope="col">Lift vs control (95 % interval)</th>
              <th scope="col" className="cc-num">
                {r.variants.length > 2 ? 'Chance to be best' : 'Chance to win'}
              </th>
              <th scope="col" className="cc-num">
                Risk
              </th>
            </tr>
          </thead>
          <tbody>
            {r.variants.map((v, i) => (
              <VariantRow key={v.id} v={v} control={i === 0} many={r.variants.length > 2} scale={scale} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="cc-exp-charts">
        <DailyExposures daily={r.daily} variants={r.variants.map((v) => v.id)} />
        <StepReach steps={r.steps} variants={r.variants} />
      </div>
      <DrillDown id={r.experiment.id} phase={r.phase} />
    </div>
  )
}

function chanceClass(c: number | null | undefined) {
  return c == null ? '' : c >= 0.95 ? 'cc-exp-win' : c <= 0.05 ? 'cc-exp-lose' : ''
}

function VariantRow({
  v,
  control,
  many,
  scale,
}: {
  v: VariantResult
  control: boolean
  many: boolean
  scale: number
}) {
  const c = v.vsControl
  const chance = many ? v.chanceToBeBest : c?.chanceToWin
  return (
    <tr data-variant={v.id}>
      <th scope="row">
        {v.id}
        {control && <span className="cc-chip">baseline</span>}
        <div className="muted cc-exp-small">weight {v.weight}%</div>
      </th>
      <td className="cc-num" data-label="Users">
        {count(v.users)}
      </td>
      <td className="cc-num" data-label="Leads">
        {count(v.leads)}
      </td>
      <td className="cc-num" data-label="Conversion" data-testid="rate">
        {pct(v.rate)}
      </td>
      <td data-label="Lift vs control">
        {control ? (
          <span className="muted">—</span>
        ) : c ? (
          <div className="cc-exp-lift">
            <span data-testid="lift">{pct(c.lift, 1, true)}</span>
            <LiftBar lift={c.lift} interval={c.interval} scale={scale} />
            <span className="muted cc-exp-small">
              {pct(c.interval[0], 1, true)} to {pct(c.interval[1], 1, true)}
            </span>
          </div>
        ) : (
          <span className="muted">Not enough data</span>
        )}
      </td>
      <td
        className={`cc-num ${chanceClass(chance)}`}
        data-label={many ? 'Chance to be best' : 'Chance to win'}
        data-testid="chance"
      >
        {control && !many ? (
          <span className="muted">—</span>
        ) : chance == null ? (
          <span className="muted">Not enough data</span>
        ) : (
          pct(chance)
        )}
      </td>
      <td className="cc-num" data-label="Risk">
        {c ? pct(c.risk, 2) : <span className="muted">—</span>}
      </td>
    </tr>
  )
}

/** The same statistics per brand, paid/organic or utm_source (top 10 + other). */
function DrillDown({ id, phase }: { id: string; phase: number }) {
  const [dimension, setDimension] = useState<ExperimentDimension | ''>('')
  const data = useResource<ExperimentResults>(
    dimension
      ? `/api/cc/experiments/${encodeURIComponent(id)}/results?phase=${phase}&dimension=${dimension}`
      : null,
  )
  const segments = data.data?.segments ?? []
  const ids = data.data?.variants.map((v) => v.id) ?? []
  return (
    <section className="cc-card stack" aria-labelledby="cc-exp-drill">
      <div className="cc-row cc-row-between">
        <h2 id="cc-exp-drill" className="cc-h3">
          Drill down
        </h2>
        <label className="cc-field cc-inline">
          <span>Split by</span>
          <select
            value={dimension}
            onChange={(e) => setDimension(e.target.value as ExperimentDimension | '')}
          >
            <option value="">Choose a dimension</option>
            {DIMENSIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {d.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {dimension && (
        <p className="muted cc-exp-small">
          Each segment is another comparison: with ten segments, one may look like a winner by chance. Treat a
          segment’s result as an idea for a new test, not a decision.
        </p>
      )}
      {!dimension ? null : data.error ? (
        <ErrorState message={data.error} retry={data.reload} />
      ) : !data.data ? (
        <Loading what="segments" />
      ) : segments.length === 0 ? (
        <Empty>No users in this phase yet.</Empty>
      ) : (
        <ScrollRegion label={`Results by ${dimension}`}>
          <table className="cc-table cc-cards" data-testid="segments-table">
            <thead>
              <tr>
                <th scope="col">{DIMENSIONS.find((d) => d.id === dimension)?.label}</th>
                <th scope="col" className="cc-num">
                  Users
                </th>
                {ids.map((v) => (
                  <th key={v} scope="col" className="cc-num">
                    {v}
                  </th>
                ))}
                <th scope="col">Lift</th>
                <th scope="col" className="cc-num">
                  Chance to win
                </th>
                <th scope="col">SRM</th>
              </tr>
            </thead>
            <tbody>
              {segments.map((s) => {
                const t = s.variants[1]?.vsControl
                return (
                  <tr key={s.other ? '(other)' : s.segment}>
                    <th scope="row">{s.other ? <em>all other values</em> : s.segment}</th>
                    <td className="cc-num" data-label="Users">
                      {count(s.users)}
                    </td>
                    {s.variants.map((v) => (
                      <td key={v.id} className="cc-num" data-label={v.id}>
                        {pct(v.rate)}{' '}
                        <span className="muted cc-exp-small">
                          ({count(v.leads)}/{count(v.users)})
                        </span>
                      </td>
                    ))}
                    <td data-label="Lift">
                      {t ? pct(t.lift, 1, true) : <span className="muted">Not enough data</span>}
                    </td>
                    <td className={`cc-num ${chanceClass(t?.chanceToWin)}`} data-label="Chance to win">
                      {t ? pct(t.chanceToWin) : '—'}
                    </td>
                    <td data-label="SRM">
                      {s.srm.mismatch ? (
                        <span className="cc-chip cc-chip-error">{pValue(s.srm.pValue)}</span>
                      ) : (
                        <span className="muted">OK</span>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  )
}

/** A preview link per variant on a brand's host: a signed branch preview with `fw_variant`. */
function Previews({
  branch,
  row,
  results,
}: {
  branch: string
  row: ExperimentListRow
  results: ExperimentResults | null
}) {
  const api = useApi()
  const brands = row.brands ?? []
  const [brand, setBrand] = useState(brands[0] ?? '')
  const [url, setUrl] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const pathOf = (results?.experiment.pagePath ?? `/${row.page}`).replace(/\/\{[^}]*\}.*$/, '') || '/'
  useEffect(() => {
    if (!brand) return
    let live = true
    setUrl(null)
    setError(null)
    api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
      branch,
      drafts: true,
      brand,
      path: pathOf,
    }).then(
      (r) => live && setUrl(r.urls[brand] ?? Object.values(r.urls)[0] ?? null),
      (e: Error) => live && setError(e.message),
    )
    return () => {
      live = false
    }
  }, [api, branch, brand, pathOf])
  const withVariant = (u: string, v: string) => {
    const x = new URL(u)
    x.searchParams.set('fw_variant', v)
    return x.toString()
  }
  if (!brands.length) return <Empty>The page has no brand to preview it on.</Empty>
  return (
    <div className="stack">
      <label className="cc-field cc-inline">
        <span>Brand</span>
        <select value={brand} onChange={(e) => setBrand(e.target.value)}>
          {brands.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
      </label>
      <p className="muted cc-exp-small">
        Each link shows the page on {brand} as one variant, from branch {branch} with your unsaved changes. A
        preview is not counted and does not assign the variant. Links expire after a while; open this tab
        again for new ones.
      </p>
      {error ? (
        <ErrorState message={error} />
      ) : !url ? (
        <Loading what="preview links" />
      ) : (
        <ul className="cc-list" data-testid="variant-previews">
          {(row.variants ?? []).map((v) => (
            <li key={v.id}>
              <a href={withVariant(url, v.id)} target="_blank" rel="noopener">
                Preview {v.id}
              </a>{' '}
              <span className="muted cc-exp-small">
                {results?.experiment.variants.find((d) => d.id === v.id)?.overrides?.headline ??
                  (v.id === 'control' ? 'the page as written' : '')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** "Weights changed in this phase" (experiment-format.ts weightsHealth). */
function WeightsHealth({ r }: { r: ExperimentResults }) {
  const w = weightsHealth(r.phases, r.phase)
  if (!w) return null
  return (
    <li className={w.changed ? 'cc-exp-warn' : ''} data-testid="health-weights">
      <span className="cc-exp-health-k">Weights</span>
      <span className="cc-exp-health-v">{w.value}</span>
      <span className="muted">{w.detail}</span>
    </li>
  )
}
