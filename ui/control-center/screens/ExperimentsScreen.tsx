import { type FormEvent, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type { FileRow } from '../../../schemas/generated/cc-answers/common'
import type { ExperimentListRow } from '../../../schemas/generated/cc-answers/experiments'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { StatusChip } from '../ExperimentCharts'
import { count, pct, pValue } from '../experiment-format'
import { Empty, FormError, ScrollRegion, WithResource } from '../States'
import { useMutation } from '../use-mutation'
import { useResource } from '../use-resource'
import '../experiments.css'

/** `/experiments?branch=B`: every experiment of the branch, with live results; New experiment. */
export default function ExperimentsScreen() {
  const { branch: b, revision, may, offerBranch } = useCc()
  const branch = b as string
  const list = useResource<{ head: string; experiments: ExperimentListRow[] }>(
    `/api/cc/experiments?branch=${encodeURIComponent(branch)}`,
    revision,
  )
  const [creating, setCreating] = useState(false)
  const canEdit = may('branch.edit')
  return (
    <div className="cc-page cc-exp">
      <div className="cc-title-row">
        <h1>Experiments</h1>
        {canEdit && (
          <button
            type="button"
            className="button button-primary"
            onClick={() => (branch === LIVE_BRANCH_NAME ? offerBranch() : setCreating(true))}
          >
            New experiment
          </button>
        )}
      </div>
      <p className="muted cc-exp-intro">
        Definitions and status on <strong>{branch}</strong>; visitors and results are from live traffic in
        each experiment’s current phase.
      </p>
      <WithResource resource={list} what="experiments">
        {(d) =>
          d.experiments.length === 0 ? (
            <Empty>No experiments on this branch yet. Start one with “New experiment”.</Empty>
          ) : (
            <ScrollRegion label="Experiments">
              <table className="cc-table cc-cards cc-exp-list" data-testid="experiment-table">
                <caption className="muted">
                  {d.experiments.length} experiment{d.experiments.length === 1 ? '' : 's'}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Experiment</th>
                    <th scope="col">Page</th>
                    <th scope="col">Brands</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="cc-num">
                      Visitors
                    </th>
                    <th scope="col">Leader</th>
                    <th scope="col" className="cc-num">
                      Chance to win
                    </th>
                    <th scope="col">SRM</th>
                  </tr>
                </thead>
                <tbody>
                  {d.experiments.map((e) => (
                    <ExperimentRow key={e.id} e={e} branch={branch} />
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )
        }
      </WithResource>
      {creating && (
        <NewExperimentDialog
          branch={branch}
          head={list.data?.head}
          onClose={() => setCreating(false)}
          onCreated={(id) => location.assign(ccPath('experiment', { experiment: id }, branch))}
        />
      )}
    </div>
  )
}

function ExperimentRow({ e, branch }: { e: ExperimentListRow; branch: string }) {
  const r = e.results
  return (
    <tr data-experiment={e.id}>
      <td>
        <a href={ccPath('experiment', { experiment: e.id }, branch)}>{e.id}</a>
        {e.description && <div className="muted cc-exp-desc">{e.description}</div>}
      </td>
      <td data-label="Page">
        {e.page ? <a href={ccPath('page', { page: e.page }, branch)}>{e.page}</a> : '—'}
      </td>
      <td data-label="Brands">
        <span className="cc-chips">
          {(e.brands ?? []).map((x) => (
            <span key={x} className="cc-chip">
              {x}
            </span>
          ))}
        </span>
      </td>
      <td data-label="Status">
        <StatusChip status={e.status} />
        {e.liveStatus !== e.status && (
          <div className="muted cc-exp-small">live: {e.liveStatus ?? 'not published'}</div>
        )}
      </td>
      <td className="cc-num" data-label="Visitors">
        {r ? count(r.visitors) : '—'}
      </td>
      <td data-label="Leader">
        {r ? (r.leader ?? <span className="muted">{r.visitors ? 'Not enough data' : '—'}</span>) : '—'}
      </td>
      <td className="cc-num" data-label="Chance to win">
        {r?.chanceToWin != null ? pct(r.chanceToWin) : '—'}
      </td>
      <td data-label="SRM">
        {!r || r.visitors === 0 ? (
          '—'
        ) : r.srm.mismatch ? (
          <span className="cc-chip cc-chip-error" title={pValue(r.srm.pValue)}>
            SRM {pValue(r.srm.pValue)}
          </span>
        ) : (
          <span className="cc-chip cc-exp-ok">OK</span>
        )}
      </td>
    </tr>
  )
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/

/** Id, page, hypothesis, and the one variant next to control with its headline: a draft commit. */
function NewExperimentDialog({
  branch,
  head,
  onClose,
  onCreated,
}: {
  branch: string
  head: string | undefined
  onClose: () => void
  onCreated: (id: string) => void
}) {
  const api = useApi()
  const pages = useResource<{ files: FileRow[] }>(branchApi(branch, '/files?kind=page'))
  const [f, setF] = useState({ id: '', page: '', description: '', variant: 'variant-b', headline: '' })
  const create = useMutation(
    () => api('POST', branchApi(branch, '/experiments'), { ...f, ...(head ? { expectedHead: head } : {}) }),
    { onDone: () => onCreated(f.id) },
  )
  const page = pages.data?.files.find((p) => p.page?.key === f.page)?.page
  const ok =
    SLUG.test(f.id) &&
    f.page &&
    f.description.trim() &&
    SLUG.test(f.variant) &&
    f.variant !== 'control' &&
    f.headline.trim()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    create.run()
  }
  return (
    <Dialog open title="New experiment" onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <p className="muted">
          Creates a draft on <strong>{branch}</strong>: control (the page as written) and one variant with a
          new headline, 50/50. Start it from the experiment’s page.
        </p>
        <label className="cc-field">
          <span>Id</span>
          <input
            required
            value={f.id}
            onChange={(e) => setF({ ...f, id: e.target.value })}
            placeholder="grocery-short-headline"
            aria-invalid={f.id !== '' && !SLUG.test(f.id)}
            aria-describedby="cc-exp-id-help"
          />
          <small id="cc-exp-id-help" className="muted">
            Lower-case letters, digits and dashes.
          </small>
        </label>
        <label className="cc-field">
          <span>Page</span>
          <select required value={f.page} onChange={(e) => setF({ ...f, page: e.target.value })}>
            <option value="">{pages.data ? 'Choose a page' : 'Loading pages…'}</option>
            {(pages.data?.files ?? [])
              .filter((p) => p.page && p.page.template !== 'funnel')
              .map((p) => (
                <option key={p.path} value={p.page!.key} disabled={!!p.page!.experiment}>
                  {p.page!.key}
                  {p.page!.experiment ? ` (running ${p.page!.experiment})` : ''}
                </option>
              ))}
          </select>
        </label>
        <label className="cc-field">
          <span>Hypothesis</span>
          <textarea
            required
            rows={3}
            value={f.description}
            onChange={(e) => setF({ ...f, description: e.target.value })}
            placeholder="A question headline leads more visitors to start the quiz."
          />
        </label>
        <label className="cc-field">
          <span>Variant id</span>
          <input
            required
            value={f.variant}
            onChange={(e) => setF({ ...f, variant: e.target.value })}
            aria-invalid={!SLUG.test(f.variant) || f.variant === 'control'}
          />
        </label>
        <label className="cc-field">
          <span>Variant headline</span>
          <input
            required
            value={f.headline}
            onChange={(e) => setF({ ...f, headline: e.target.value })}
            aria-describedby="cc-exp-headline-now"
          />
          <small id="cc-exp-headline-now" className="muted">
            Now: {page?.headline ?? '—'}
          </small>
        </label>
        <FormError message={create.error} />
        <div className="cc-row">
          <button type="submit" className="button button-primary" disabled={create.busy || !ok}>
            {create.busy ? 'Creating…' : 'Create draft experiment'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  )
}
