import { useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type {
  ExperimentListRow,
  ExperimentResults,
  ExperimentVariant,
} from '../../../schemas/generated/cc-answers/experiments'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { FormError, shortSha } from '../States'
import { useMutation } from '../use-mutation'

type Decision = { decision: 'start' | 'pause' | 'finish' } | { decision: 'ship'; variant: string }
type Asking = Decision | 'emergency'
interface Done {
  text: string
  commit?: string
  branch?: string
}

/** Start, Pause, Finish, Ship variant X (commits on the branch); the emergency pause for publishers. */
export function Decisions({
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
  const [asking, setAsking] = useState<Asking | null>(null)
  const [reason, setReason] = useState('')
  const act = useMutation(
    async (a: Asking): Promise<Done> => {
      if (a === 'emergency') {
        const r = await api<{ branch: string; commit: string }>(
          'POST',
          `/api/cc/experiments/${encodeURIComponent(row.id)}/emergency-pause`,
          reason.trim() ? { reason: reason.trim() } : {},
        )
        return { text: `Paused live now (branch ${r.branch}, published).`, commit: r.commit }
      }
      const r = await api<{ commit: string }>(
        'POST',
        branchApi(branch, `/experiments/${encodeURIComponent(row.id)}/decisions`),
        { ...a, expectedHead: head },
      )
      return {
        text: `${label(a)}: committed on ${branch}. Publish the branch to make it live.`,
        commit: r.commit,
        branch,
      }
    },
    {
      onDone: () => {
        setAsking(null)
        changed()
      },
    },
  )
  const done = act.succeeded ? act.output : undefined
  const status = row.status
  const variants = row.variants ?? []
  const winner = results?.variants.find((v) => v.vsControl && v.vsControl.chanceToWin >= 0.95)
  const ask = (a: Asking) => {
    act.reset()
    setAsking(a)
  }
  const decide = (d: Decision) => (branch === LIVE_BRANCH_NAME ? offerBranch() : ask(d))
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
          <button type="button" className="button cc-exp-danger" onClick={() => ask('emergency')}>
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
      <DecisionDialog
        asking={asking}
        row={row}
        branch={branch}
        defs={results?.experiment.variants ?? []}
        reason={reason}
        setReason={setReason}
        busy={act.busy}
        error={act.error}
        confirm={() => asking && act.run(asking)}
        close={() => {
          setAsking(null)
          // The dialog also says "close" when a success shuts it: keep the success's note on the screen.
          if (!act.succeeded) act.reset()
        }}
      />
    </section>
  )
}

/** "Start?", "Ship variant B?", "Pause this experiment on live now?": the consequences, then confirm. */
function DecisionDialog({
  asking,
  row,
  branch,
  defs,
  reason,
  setReason,
  busy,
  error,
  confirm,
  close,
}: {
  asking: Asking | null
  row: ExperimentListRow
  branch: string
  defs: ExperimentVariant[]
  reason: string
  setReason: (r: string) => void
  busy: boolean
  error: string | null
  confirm: () => void
  close: () => void
}) {
  return (
    <Dialog
      open={asking !== null}
      title={
        asking === 'emergency' ? 'Pause this experiment on live now?' : asking ? `${label(asking)}?` : ''
      }
      onClose={close}
    >
      {asking && (
        <div className="stack">
          {asking === 'emergency' ? (
            <>
              <p>
                Every visitor sees the page as written from the next request. This creates a branch from live,
                commits <code>status: paused</code> and publishes it at once (the checks still run).
              </p>
              <label className="cc-field">
                <span>Reason (for the log)</span>
                <input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Broken form" />
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
              onClick={confirm}
            >
              {busy
                ? 'Working…'
                : asking === 'emergency'
                  ? 'Pause live now'
                  : `${label(asking)} on ${branch}`}
            </button>
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </Dialog>
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
