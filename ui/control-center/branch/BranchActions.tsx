import { useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { BranchChecks } from '../../../schemas/generated/cc-answers/branches'
import type { Branch } from '../../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from '../api'
import { asFileConflicts } from '../Conflicts'
import { useCc } from '../cc-context'
import { FormError } from '../States'
import { useMutation } from '../use-mutation'
import {
  ArchiveDialog,
  MergeLiveDialog,
  PreviewLinksDialog,
  PublishDialog,
  ScheduleDialog,
} from './BranchDialogs'
import { type BranchDialog, type BranchWrite, onlyBudget } from './branch-write'

/** The branch's actions: Preview, Update from live, Publish, Schedule, Archive, each with its dialog. */
export function BranchActions({
  branch,
  checks,
  checking = false,
  onChanged,
}: {
  branch: Branch
  checks: BranchChecks | null
  /** The checks are still running: Publish waits for them rather than offering what they may refuse. */
  checking?: boolean
  onChanged: () => void
}) {
  const { may, route } = useCc()
  const api = useApi()
  const [dialog, setDialog] = useState<BranchDialog>(null)
  const [note, setNote] = useState<string | null>(null)
  const act = useMutation((fn: () => Promise<void>) => fn())
  const body = act.apiError?.body
  const write: BranchWrite = {
    busy: act.busy,
    error: act.error,
    errors: body?.errors ?? [],
    conflicts: asFileConflicts(body?.conflicts),
    post: (path, payload, done) =>
      act.run(async () => {
        await api('POST', branchApi(branch.name, path), payload)
        setDialog(null)
        setNote(done)
        onChanged()
      }),
    close: () => setDialog(null),
  }
  const open = (d: BranchDialog) => {
    act.reset()
    setDialog(d)
  }
  const blocked =
    checks && !checks.ok && !(may('gates.override') && onlyBudget(checks.errors))
      ? `Checks found ${checks.errors.length} problem(s): fix them first.`
      : null
  const waiting = !checks && checking
  const archived = branch.status === 'archived'
  const mayArchive = may('publish') || branch.createdBy?.id === route.user?.id
  return (
    <section className="cc-actions" aria-label="Branch actions">
      <button type="button" className="button" onClick={() => open('preview')}>
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
            disabled={blocked !== null || waiting}
            aria-describedby={blocked ? 'cc-publish-blocked' : waiting ? 'cc-publish-waiting' : undefined}
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
                act.run(async () => {
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
      {waiting && may('publish') && (
        <p id="cc-publish-waiting" className="muted" role="status">
          Running the checks…
        </p>
      )}
      {note && <p role="status">{note}</p>}
      {dialog === null && <FormError message={act.error} />}
      <PreviewLinksDialog open={dialog === 'preview'} branch={branch} onClose={write.close} />
      <MergeLiveDialog open={dialog === 'merge'} branch={branch} write={write} />
      <PublishDialog open={dialog === 'publish'} branch={branch} checks={checks} write={write} />
      <ScheduleDialog open={dialog === 'schedule'} branch={branch} write={write} />
      <ArchiveDialog
        open={dialog === 'archive'}
        branch={branch}
        write={write}
        archive={() =>
          act.run(async () => {
            await api('DELETE', branchApi(branch.name))
            location.assign(ccPath('branches'))
          })
        }
      />
    </section>
  )
}
