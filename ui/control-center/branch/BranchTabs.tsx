import { useState } from 'react'
import type { BranchChecks, HistoryCommit } from '../../../schemas/generated/cc-answers/branches'
import type { Branch } from '../../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { DiffView } from '../DiffView'
import { ErrorList } from '../ErrorList'
import { publishReadiness } from '../publish-readiness'
import { Empty, ErrorState, FormError, Loading, laTime, shortSha, WithResource } from '../States'
import { useMutation } from '../use-mutation'
import { useResource } from '../use-resource'

export function ChangesTab({ branch, revision }: { branch: string; revision: number }) {
  return (
    <DiffView
      url={branchApi(branch, '/diff')}
      branch={branch}
      revision={revision}
      empty="No changes against live yet."
    />
  )
}

/** Validation errors and publish gates, run on what publishing would put live. */
export function ChecksTab({
  branch,
  checks,
}: {
  branch: string
  checks: { data: BranchChecks | null; error: string | null; reload: () => void }
}) {
  if (checks.error) return <ErrorState message={checks.error} retry={checks.reload} />
  if (!checks.data) return <Loading what="checks" />
  const c = checks.data
  return (
    <div className="stack">
      {c.conflicts?.length ? (
        <p className="cc-form-error" data-testid="check-conflicts">
          {(publishReadiness(c, false) as { text: string }).text}
        </p>
      ) : c.ok ? (
        <Empty>All checks pass on what publishing would put live.</Empty>
      ) : (
        <ErrorList errors={c.errors} branch={branch} />
      )}
      {!!c.warnings?.length && (
        <section aria-label="Warnings" data-testid="check-warnings">
          <h2 className="cc-h3">
            {c.warnings.length} warning{c.warnings.length === 1 ? '' : 's'} (publishing is not blocked)
          </h2>
          <ErrorList errors={c.warnings} branch={branch} />
        </section>
      )}
    </div>
  )
}

export function HistoryTab({ branch, revision }: { branch: string; revision: number }) {
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

type ReviewDecision = 'approve' | 'request-changes'

export function ReviewTab({ branch, onChanged }: { branch: Branch; onChanged: () => void }) {
  const { may } = useCc()
  const api = useApi()
  const [comment, setComment] = useState('')
  const [done, setDone] = useState<string | null>(null)
  const decide = useMutation(
    (decision: ReviewDecision) =>
      api('POST', branchApi(branch.name, '/reviews'), { decision, ...(comment.trim() ? { comment } : {}) }),
    {
      onDone: (_, decision) => {
        setDone(decision === 'approve' ? 'Approved at this head.' : 'Changes requested.')
        setComment('')
        onChanged()
      },
    },
  )
  const approved = branch.approvedCommit !== null && branch.approvedCommit === branch.head
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
            <button
              type="button"
              className="button button-primary"
              disabled={decide.busy}
              onClick={() => decide.run('approve')}
            >
              Approve
            </button>
            <button
              type="button"
              className="button"
              disabled={decide.busy}
              onClick={() => decide.run('request-changes')}
            >
              Request changes
            </button>
          </div>
        </>
      ) : (
        <p className="muted">Publishers and admins approve branches; ask one to review this branch.</p>
      )}
      {done && <p role="status">{done}</p>}
      <FormError message={decide.error} />
    </div>
  )
}
