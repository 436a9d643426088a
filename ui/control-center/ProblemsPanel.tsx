import { useState } from 'react'
import type { DefinitionError } from '../../schemas/generated/cc-answers/common'
import { branchApi } from './api'
import { useCc } from './cc-context'
import { Dialog } from './Dialog'
import { ErrorList } from './ErrorList'
import { ErrorState, Loading } from './States'
import { useResource } from './use-resource'

/**
 * The header's Problems count and panel: every validation error of the branch plus my drafts (the
 * server's one validator: schema and cross-checks), each linking to its file and field. The count
 * follows every autosave (`changed()` bumps the revision); one answer carries every error (the
 * snapshot the server validates anyway), not a file list to read one by one.
 */
export function ProblemsPanel({ branch }: { branch: string }) {
  const { revision } = useCc()
  const [open, setOpen] = useState(false)
  const problems = useResource<{ errors: DefinitionError[] }>(branchApi(branch, '/problems'), revision)
  const errors = problems.data?.errors ?? null
  const total = errors?.length ?? 0
  return (
    <>
      <button
        type="button"
        className={total ? 'button cc-small cc-has-problems' : 'button cc-small'}
        onClick={() => setOpen(true)}
        data-testid="problems-panel"
      >
        Problems <span className="cc-count">{errors ? total : '…'}</span>
      </button>
      <Dialog open={open} title="Problems on this branch" onClose={() => setOpen(false)} wide>
        {problems.error ? (
          <ErrorState message={problems.error} retry={problems.reload} />
        ) : !errors ? (
          <Loading what="problems" />
        ) : errors.length === 0 ? (
          <p>No problems: every definition on this branch (with your drafts) is valid.</p>
        ) : (
          <ErrorList errors={errors} branch={branch} />
        )}
      </Dialog>
    </>
  )
}
