import { useState } from 'react'
import type { DefinitionError, FileRow } from '../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from './api'
import { useCc } from './cc-context'
import { Dialog } from './Dialog'
import { ErrorList } from './ErrorList'
import { ErrorState, Loading } from './States'
import { useResource } from './use-resource'

/**
 * The header's Problems count and panel: every validation error of the branch plus my drafts (the
 * server's one validator: schema and cross-checks), each linking to its file and field. The count
 * follows every autosave (`changed()` bumps the revision); the errors are read from each file with
 * problems when the panel opens.
 */
export function ProblemsPanel({ branch }: { branch: string }) {
  const { revision } = useCc()
  const api = useApi()
  const [open, setOpen] = useState(false)
  const files = useResource<{ files: FileRow[] }>(branchApi(branch, '/files'), revision)
  const [errors, setErrors] = useState<DefinitionError[] | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const withProblems = (files.data?.files ?? []).filter((f) => f.problems > 0)
  const total = withProblems.reduce((n, f) => n + f.problems, 0)
  const openPanel = async () => {
    setOpen(true)
    setErrors(null)
    setFailed(null)
    try {
      const docs = await Promise.all(
        withProblems.map((f) =>
          api<{ errors: DefinitionError[] }>(
            'GET',
            branchApi(branch, `/file?path=${encodeURIComponent(f.path)}`),
          ),
        ),
      )
      setErrors(docs.flatMap((d) => d.errors))
    } catch (e) {
      setFailed((e as Error).message)
    }
  }
  return (
    <>
      <button
        type="button"
        className={total ? 'button cc-small cc-has-problems' : 'button cc-small'}
        onClick={openPanel}
        data-testid="problems-panel"
      >
        Problems <span className="cc-count">{files.data ? total : '…'}</span>
      </button>
      <Dialog open={open} title="Problems on this branch" onClose={() => setOpen(false)} wide>
        {failed ? (
          <ErrorState message={failed} retry={openPanel} />
        ) : files.error ? (
          <ErrorState message={files.error} retry={files.reload} />
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
