import { useEffect, useState } from 'react'
import type { BranchChecks } from '../../../schemas/generated/cc-answers/branches'
import type { Branch } from '../../../schemas/generated/cc-answers/common'
import { useApi } from '../api'
import { ConflictChooser, type Resolution } from '../Conflicts'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { ErrorList } from '../ErrorList'
import { isoToLaLocal, laLocalToIso } from '../la-time'
import { publishReadiness } from '../publish-readiness'
import { ErrorState, FormError, Loading, laTime } from '../States'
import { useMutation } from '../use-mutation'
import { type BranchWrite, onlyBudget } from './branch-write'

/** Preview links of the branch (committed content, no drafts), one per brand. */
export function PreviewLinksDialog({
  open,
  branch,
  onClose,
}: {
  open: boolean
  branch: Branch
  onClose: () => void
}) {
  const api = useApi()
  const grant = useMutation(() =>
    api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', { branch: branch.name, drafts: false }),
  )
  const { run, reset } = grant
  useEffect(() => {
    if (open) run()
    else reset()
  }, [open, run, reset])
  return (
    <Dialog open={open} title={`Preview ${branch.name}`} onClose={onClose}>
      {grant.error ? (
        <ErrorState message={grant.error} retry={grant.retry} />
      ) : !grant.output ? (
        <Loading what="preview links" />
      ) : (
        <ul className="cc-list">
          {Object.entries(grant.output.urls).map(([brand, url]) => (
            <li key={brand}>
              <a href={url} target="_blank" rel="noopener">
                Open on {brand}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  )
}

export function MergeLiveDialog({
  open,
  branch,
  write,
}: {
  open: boolean
  branch: Branch
  write: BranchWrite
}) {
  const { conflicts, busy, post } = write
  return (
    <Dialog open={open} title="Update from live" onClose={write.close} wide>
      <div className="stack">
        <p>
          Brings what was published since this branch started into it. Different fields merge on their own.
        </p>
        {conflicts.length > 0 ? (
          <>
            <p>The same fields changed on live and on this branch. Choose a side for each:</p>
            <ConflictChooser
              conflicts={conflicts}
              theirsLabel="Live"
              mineLabel="This branch"
              busy={busy}
              onResolve={(resolutions: Resolution[]) =>
                post('/merge-live', { expectedHead: branch.head, resolutions }, 'Updated from live.')
              }
            />
          </>
        ) : (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => post('/merge-live', { expectedHead: branch.head }, 'Updated from live.')}
          >
            {busy ? 'Updating…' : 'Update now'}
          </button>
        )}
        {conflicts.length === 0 && <FormError message={write.error} />}
      </div>
    </Dialog>
  )
}

export function PublishDialog({
  open,
  branch,
  checks,
  write,
}: {
  open: boolean
  branch: Branch
  checks: BranchChecks | null
  write: BranchWrite
}) {
  const { may } = useCc()
  const { error, errors, conflicts, busy, post } = write
  const overridable =
    may('gates.override') && (onlyBudget(errors) || (checks && !checks.ok && onlyBudget(checks.errors)))
  const readiness = publishReadiness(checks, error !== null || errors.length > 0 || conflicts.length > 0)
  return (
    <Dialog open={open} title={`Publish ${branch.name}?`} onClose={write.close} wide>
      <div className="stack">
        <p>These files go live on every brand that uses them:</p>
        <ul className="cc-files">
          {branch.files.map((f) => (
            <li key={f.path}>
              <span className="cc-kind">{f.kind}</span> {f.path} <span className="muted">({f.status})</span>
            </li>
          ))}
        </ul>
        {'text' in readiness && (
          <p data-testid="publish-readiness" className={readiness.state === 'pass' ? '' : 'cc-form-error'}>
            {readiness.text}
          </p>
        )}
        <FormError message={error} />
        {errors.length > 0 && <ErrorList errors={errors} branch={branch.name} />}
        {conflicts.length > 0 && (
          <p>
            Live changed the same fields (
            {conflicts.flatMap((c) => c.conflicts.map((x) => x.pointer || '/')).join(', ')}
            ): use <strong>Update from live</strong> to choose, then publish.
          </p>
        )}
        {overridable ? (
          <OverrideForm branch={branch} checks={checks} write={write} />
        ) : (
          <div className="cc-row">
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() =>
                post('/publish', { expectedHead: branch.head }, 'Published. Live now serves this branch.')
              }
            >
              {busy ? 'Publishing…' : 'Publish'}
            </button>
            <button type="button" className="button" onClick={write.close}>
              Cancel
            </button>
          </div>
        )}
      </div>
    </Dialog>
  )
}

/** An admin publishing past gates that only ran out of time, with a reason for the audit log. */
function OverrideForm({
  branch,
  checks,
  write,
}: {
  branch: Branch
  checks: BranchChecks | null
  write: BranchWrite
}) {
  const [reason, setReason] = useState('')
  return (
    <form
      className="stack cc-override"
      data-testid="gate-override"
      onSubmit={(e) => {
        e.preventDefault()
        write.post(
          '/publish',
          { expectedHead: branch.head, overrideBudget: { reason: reason.trim() } },
          'Published past the gates that ran out of time. The override is in the audit log.',
        )
      }}
    >
      <p>
        The gates ran out of time before checking every path, so they could not confirm this publish. As an
        admin you may publish anyway; your reason is recorded in the audit log.
      </p>
      {write.errors.length === 0 && checks && <ErrorList errors={checks.errors} branch={branch.name} />}
      <label className="cc-field">
        <span>Why is publishing without a complete check safe?</span>
        <textarea
          required
          minLength={10}
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <div className="cc-row">
        <button
          type="submit"
          className="button button-primary"
          disabled={write.busy || reason.trim().length < 10}
        >
          {write.busy ? 'Publishing…' : 'Publish with an override'}
        </button>
        <button type="button" className="button" onClick={write.close}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export function ScheduleDialog({
  open,
  branch,
  write,
}: {
  open: boolean
  branch: Branch
  write: BranchWrite
}) {
  const [when, setWhen] = useState(() => isoToLaLocal(Date.now() + 60 * 60_000))
  const [missing, setMissing] = useState(false)
  return (
    <Dialog open={open} title="Schedule publish" onClose={write.close}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault()
          const at = laLocalToIso(when)
          setMissing(!at)
          if (at) write.post('/publish', { expectedHead: branch.head, at }, `Publishes ${laTime(at)}.`)
        }}
      >
        <label className="cc-field">
          <span>Date and time (Los Angeles)</span>
          <input type="datetime-local" required value={when} onChange={(e) => setWhen(e.target.value)} />
        </label>
        <p className="muted">Publishes at {laTime(laLocalToIso(when))}.</p>
        <FormError message={missing ? 'Pick a date and time.' : write.error} />
        {write.errors.length > 0 && <ErrorList errors={write.errors} branch={branch.name} />}
        <button type="submit" className="button button-primary" disabled={write.busy}>
          Schedule
        </button>
      </form>
    </Dialog>
  )
}

export function ArchiveDialog({
  open,
  branch,
  write,
  archive,
}: {
  open: boolean
  branch: Branch
  write: BranchWrite
  archive: () => void
}) {
  return (
    <Dialog open={open} title={`Archive ${branch.name}?`} onClose={write.close}>
      <div className="stack">
        <p>The branch leaves the list; its commits stay in history. Nothing on live changes.</p>
        <FormError message={write.error} />
        <div className="cc-row">
          <button type="button" className="button button-primary" disabled={write.busy} onClick={archive}>
            Archive
          </button>
          <button type="button" className="button" onClick={write.close}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  )
}
