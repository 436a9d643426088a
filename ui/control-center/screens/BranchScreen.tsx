import { useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type { BranchChecks, HistoryCommit } from '../../../schemas/generated/cc-answers/branches'
import type { Branch, DefinitionError } from '../../../schemas/generated/cc-answers/common'
import { ActivityTable } from '../ActivityTable'
import { ApiError, branchApi, useApi } from '../api'
import { asFileConflicts, ConflictChooser, type Resolution } from '../Conflicts'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { DiffView } from '../DiffView'
import { ErrorList } from '../ErrorList'
import { ImpactTab } from '../ImpactTab'
import { isoToLaLocal, laLocalToIso } from '../la-time'
import { publishReadiness } from '../publish-readiness'
import { Empty, ErrorState, FormError, Loading, laTime, shortSha, WithResource } from '../States'
import { Tabs } from '../Tabs'
import { useResource } from '../use-resource'

type Checks = BranchChecks

/** `/branches/{branch}`: header, Changes, Checks, Impact, Review, History, Activity, and the branch's actions. */
export default function BranchScreen() {
  const { branch: name } = useCc()
  const branch = name as string
  const [revision, setRevision] = useState(0)
  const res = useResource<{ branch: Branch }>(branchApi(branch), revision)
  const checks = useResource<Checks>(branchApi(branch, '/checks'), revision)
  const [tab, setTab] = useState(() => new URLSearchParams(location.search).get('tab') ?? 'changes')
  const select = (t: string) => {
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  if (res.error) return <ErrorState message={res.error} retry={res.reload} />
  if (!res.data) return <Loading what={`branch ${branch}`} />
  const b = res.data.branch
  const approved = b.approvedCommit !== null && b.approvedCommit === b.head
  return (
    <div className="cc-page">
      <div className="cc-title-row">
        <div>
          <h1>
            {b.title || b.name} <span className="cc-chip">{b.scheduledAt ? 'scheduled' : b.status}</span>
          </h1>
          <p className="muted">
            <code>{b.name}</code> · base <code>{shortSha(b.baseCommit)}</code> · head{' '}
            <code data-testid="branch-head">{shortSha(b.head)}</code>
            {b.createdBy && <> · by {b.createdBy.name}</>}
            {b.scheduledAt && <> · publishes {laTime(b.scheduledAt)}</>}
            {' · '}
            {approved ? 'approved at this head' : 'needs review'}
          </p>
          {b.description && <p>{b.description}</p>}
        </div>
        <a className="button" href={ccPath('pages', {}, b.name)}>
          Edit pages
        </a>
      </div>
      {b.name !== LIVE_BRANCH_NAME && (
        <BranchActions branch={b} checks={checks.data} onChanged={() => setRevision((r) => r + 1)} />
      )}
      <Tabs
        label="Branch"
        selected={tab}
        onSelect={select}
        tabs={[
          { id: 'changes', label: 'Changes' },
          {
            id: 'checks',
            label: (
              <>
                Checks{' '}
                {checks.data && (
                  <span className={checks.data.ok ? 'cc-count' : 'cc-count cc-count-error'}>
                    {checks.data.errors.length}
                  </span>
                )}
              </>
            ),
          },
          { id: 'impact', label: 'Impact' },
          { id: 'review', label: 'Review' },
          { id: 'history', label: 'History' },
          { id: 'activity', label: 'Activity' },
        ]}
      >
        {tab === 'changes' && <ChangesTab branch={branch} revision={revision} />}
        {tab === 'checks' &&
          (checks.error ? (
            <ErrorState message={checks.error} retry={checks.reload} />
          ) : !checks.data ? (
            <Loading what="checks" />
          ) : (
            <div className="stack">
              {checks.data.conflicts?.length ? (
                <p className="cc-form-error" data-testid="check-conflicts">
                  {(publishReadiness(checks.data, false) as { text: string }).text}
                </p>
              ) : checks.data.ok ? (
                <Empty>All checks pass on what publishing would put live.</Empty>
              ) : (
                <ErrorList errors={checks.data.errors} branch={branch} />
              )}
              {!!checks.data.warnings?.length && (
                <section aria-label="Warnings" data-testid="check-warnings">
                  <h2 className="cc-h3">
                    {checks.data.warnings.length} warning{checks.data.warnings.length === 1 ? '' : 's'}{' '}
                    (publishing is not blocked)
                  </h2>
                  <ErrorList errors={checks.data.warnings} branch={branch} />
                </section>
              )}
            </div>
          ))}
        {tab === 'impact' && <ImpactTab branch={branch} revision={revision} />}
        {tab === 'review' && <ReviewTab branch={b} onChanged={() => setRevision((r) => r + 1)} />}
        {tab === 'history' && <HistoryTab branch={branch} revision={revision} />}
        {tab === 'activity' && <ActivityTable branch={branch} />}
      </Tabs>
    </div>
  )
}

function ChangesTab({ branch, revision }: { branch: string; revision: number }) {
  return (
    <DiffView
      url={branchApi(branch, '/diff')}
      branch={branch}
      revision={revision}
      empty="No changes against live yet."
    />
  )
}

function HistoryTab({ branch, revision }: { branch: string; revision: number }) {
  const log = useResource<{ commits: HistoryCommit[] }>(branchApi(branch, '/history'), revision)
  return (
    <WithResource resource={log} what="history">
      {(d) =>
        d.commits.length === 0 ? (
          <Empty>No commits yet.</Empty>
        ) : (
          <ol className="cc-list cc-history">
            {d.commits.map((c) => (
              <li key={c.sha}>
                <code>{shortSha(c.sha)}</code> {c.subject}{' '}
                <span className="muted">
                  {c.author.name} · {laTime(c.date)}
                </span>
              </li>
            ))}
          </ol>
        )
      }
    </WithResource>
  )
}

function ReviewTab({ branch, onChanged }: { branch: Branch; onChanged: () => void }) {
  const { may } = useCc()
  const api = useApi()
  const [comment, setComment] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const approved = branch.approvedCommit !== null && branch.approvedCommit === branch.head
  const decide = async (decision: 'approve' | 'request-changes') => {
    setError(null)
    try {
      await api('POST', branchApi(branch.name, '/reviews'), {
        decision,
        ...(comment.trim() ? { comment } : {}),
      })
      setDone(decision === 'approve' ? 'Approved at this head.' : 'Changes requested.')
      setComment('')
      onChanged()
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <div className="stack">
      <p>
        {approved
          ? `Approved at ${shortSha(branch.approvedCommit)} (the head). A new commit resets the approval.`
          : branch.approvedCommit
            ? `An approval was given at ${shortSha(branch.approvedCommit)}; the branch has moved since, so it needs review again.`
            : 'Not approved yet.'}
      </p>
      {may('branch.approve') ? (
        <>
          <label className="cc-field">
            <span>Comment (optional)</span>
            <textarea rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
          </label>
          <div className="cc-row">
            <button type="button" className="button button-primary" onClick={() => decide('approve')}>
              Approve
            </button>
            <button type="button" className="button" onClick={() => decide('request-changes')}>
              Request changes
            </button>
          </div>
        </>
      ) : (
        <p className="muted">Publishers and admins approve branches; ask one to review this branch.</p>
      )}
      {done && <p role="status">{done}</p>}
      <FormError message={error} />
    </div>
  )
}

function BranchActions({
  branch,
  checks,
  onChanged,
}: {
  branch: Branch
  checks: Checks | null
  onChanged: () => void
}) {
  const { may, route } = useCc()
  const api = useApi()
  const [dialog, setDialog] = useState<null | 'preview' | 'merge' | 'publish' | 'schedule' | 'archive'>(null)
  const [error, setError] = useState<string | null>(null)
  const [errors, setErrors] = useState<DefinitionError[]>([])
  const [conflicts, setConflicts] = useState<ReturnType<typeof asFileConflicts>>([])
  const [busy, setBusy] = useState(false)
  const [previews, setPreviews] = useState<Record<string, string> | null>(null)
  const [when, setWhen] = useState(() => isoToLaLocal(Date.now() + 60 * 60_000))
  const [note, setNote] = useState<string | null>(null)
  const open = (d: typeof dialog) => {
    setError(null)
    setErrors([])
    setConflicts([])
    setDialog(d)
  }
  const run = async (fn: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    try {
      await fn()
    } catch (e) {
      setError((e as Error).message)
      if (e instanceof ApiError) {
        setErrors(e.body?.errors ?? [])
        setConflicts(asFileConflicts(e.body?.conflicts))
      }
    } finally {
      setBusy(false)
    }
  }
  /** POSTs `body` to the branch's `path`; then the dialog closes, `done` shows, and the screen reloads. */
  const post = (path: string, body: object, done: string) =>
    run(async () => {
      await api('POST', branchApi(branch.name, path), body)
      setDialog(null)
      setNote(done)
      onChanged()
    })
  // Gates that only ran out of time block too, except for an admin, who may publish past them.
  const onlyBudget = (list: DefinitionError[]) => list.length > 0 && list.every((e) => e.budget === true)
  const mayOverride = may('gates.override')
  const blocked =
    checks && !checks.ok && !(mayOverride && onlyBudget(checks.errors))
      ? `Checks found ${checks.errors.length} problem(s): fix them first.`
      : null
  const overridable =
    mayOverride && (onlyBudget(errors) || (checks && !checks.ok && onlyBudget(checks.errors)))
  const [reason, setReason] = useState('')
  const readiness = publishReadiness(checks, error !== null || errors.length > 0 || conflicts.length > 0)
  const archived = branch.status === 'archived'
  const mayArchive = may('publish') || branch.createdBy?.id === route.user?.id
  return (
    <section className="cc-actions" aria-label="Branch actions">
      <button
        type="button"
        className="button"
        onClick={() => {
          open('preview')
          setPreviews(null)
          run(async () => {
            const r = await api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
              branch: branch.name,
              drafts: false,
            })
            setPreviews(r.urls)
          })
        }}
      >
        Preview
      </button>
      {may('branch.edit') && !archived && (
        <button type="button" className="button" onClick={() => open('merge')}>
          Update from live
        </button>
      )}
      {may('publish') && !archived && (
        <>
          <button
            type="button"
            className="button button-primary"
            disabled={blocked !== null}
            aria-describedby={blocked ? 'cc-publish-blocked' : undefined}
            onClick={() => open('publish')}
          >
            Publish now
          </button>
          <button
            type="button"
            className="button"
            disabled={blocked !== null}
            onClick={() => open('schedule')}
          >
            Schedule publish
          </button>
          {branch.scheduledAt && (
            <button
              type="button"
              className="button"
              onClick={() =>
                run(async () => {
                  await api('DELETE', branchApi(branch.name, '/schedule'))
                  setNote('Scheduled publish cancelled.')
                  onChanged()
                })
              }
            >
              Cancel schedule
            </button>
          )}
        </>
      )}
      {mayArchive && !archived && (
        <button type="button" className="button" onClick={() => open('archive')}>
          Archive
        </button>
      )}
      {blocked && may('publish') && (
        <p id="cc-publish-blocked" className="cc-form-error">
          {blocked}
        </p>
      )}
      {note && <p role="status">{note}</p>}
      {dialog === null && <FormError message={error} />}

      <Dialog open={dialog === 'preview'} title={`Preview ${branch.name}`} onClose={() => setDialog(null)}>
        {error ? (
          <ErrorState message={error} />
        ) : !previews ? (
          <Loading what="preview links" />
        ) : (
          <ul className="cc-list">
            {Object.entries(previews).map(([brand, url]) => (
              <li key={brand}>
                <a href={url} target="_blank" rel="noopener">
                  Open on {brand}
                </a>
              </li>
            ))}
          </ul>
        )}
      </Dialog>

      <Dialog open={dialog === 'merge'} title="Update from live" onClose={() => setDialog(null)} wide>
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
          {conflicts.length === 0 && <FormError message={error} />}
        </div>
      </Dialog>

      <Dialog
        open={dialog === 'publish'}
        title={`Publish ${branch.name}?`}
        onClose={() => setDialog(null)}
        wide
      >
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
              {conflicts.flatMap((c) => c.conflicts.map((x) => x.pointer || '/')).join(', ')}): use{' '}
              <strong>Update from live</strong> to choose, then publish.
            </p>
          )}
          {overridable ? (
            <form
              className="stack cc-override"
              data-testid="gate-override"
              onSubmit={(e) => {
                e.preventDefault()
                post(
                  '/publish',
                  { expectedHead: branch.head, overrideBudget: { reason: reason.trim() } },
                  'Published past the gates that ran out of time. The override is in the audit log.',
                )
              }}
            >
              <p>
                The gates ran out of time before checking every path, so they could not confirm this publish.
                As an admin you may publish anyway; your reason is recorded in the audit log.
              </p>
              {errors.length === 0 && checks && <ErrorList errors={checks.errors} branch={branch.name} />}
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
                  disabled={busy || reason.trim().length < 10}
                >
                  {busy ? 'Publishing…' : 'Publish with an override'}
                </button>
                <button type="button" className="button" onClick={() => setDialog(null)}>
                  Cancel
                </button>
              </div>
            </form>
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
              <button type="button" className="button" onClick={() => setDialog(null)}>
                Cancel
              </button>
            </div>
          )}
        </div>
      </Dialog>

      <Dialog open={dialog === 'schedule'} title="Schedule publish" onClose={() => setDialog(null)}>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault()
            const at = laLocalToIso(when)
            if (!at) return setError('Pick a date and time.')
            post('/publish', { expectedHead: branch.head, at }, `Publishes ${laTime(at)}.`)
          }}
        >
          <label className="cc-field">
            <span>Date and time (Los Angeles)</span>
            <input type="datetime-local" required value={when} onChange={(e) => setWhen(e.target.value)} />
          </label>
          <p className="muted">Publishes at {laTime(laLocalToIso(when))}.</p>
          <FormError message={error} />
          {errors.length > 0 && <ErrorList errors={errors} branch={branch.name} />}
          <button type="submit" className="button button-primary" disabled={busy}>
            Schedule
          </button>
        </form>
      </Dialog>

      <Dialog open={dialog === 'archive'} title={`Archive ${branch.name}?`} onClose={() => setDialog(null)}>
        <div className="stack">
          <p>The branch leaves the list; its commits stay in history. Nothing on live changes.</p>
          <FormError message={error} />
          <div className="cc-row">
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() =>
                run(async () => {
                  await api('DELETE', branchApi(branch.name))
                  location.assign(ccPath('branches'))
                })
              }
            >
              Archive
            </button>
            <button type="button" className="button" onClick={() => setDialog(null)}>
              Cancel
            </button>
          </div>
        </div>
      </Dialog>
    </section>
  )
}
