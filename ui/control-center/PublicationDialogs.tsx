import { ccPath, LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { PublicationEntry } from '../../schemas/generated/cc-answers/publishing'
import { useApi } from './api'
import { asFileConflicts } from './Conflicts'
import { Dialog } from './Dialog'
import { DiffView } from './DiffView'
import { FormError, jsonValue, laTime } from './States'
import { useMutation } from './use-mutation'

const named = (p: PublicationEntry) => `#${p.id}${p.branch ? ` (branch ${p.branch})` : ''} of ${laTime(p.at)}`

/** How live moved, in the words people use (Live history's Kind column, the dialogs). */
export function publicationKindLabel(kind: string): string {
  switch (kind) {
    case 'publish':
      return 'Published'
    case 'scheduled':
      return 'Scheduled publish'
    case 'rollback':
      return 'Rolled back'
    case 'import':
      return 'Imported'
    case 'emergency':
      return 'Emergency pause'
    case 'push':
      return 'Pushed with git'
    case 'outside':
      return 'Moved outside the control center'
    default:
      return kind
  }
}

/** "View diff": what one publication changed against the live it replaced. */
export function PublicationDiffDialog({
  publication,
  onClose,
}: {
  publication: PublicationEntry | null
  onClose: () => void
}) {
  return (
    <Dialog
      open={publication !== null}
      title={publication ? `What publication #${publication.id} changed` : 'What this publication changed'}
      onClose={onClose}
      wide
    >
      {publication && (
        <div className="stack">
          <p>
            {publicationKindLabel(publication.kind)}: publication {named(publication)}
            {publication.kind === 'outside' ? '' : ` by ${publication.actor?.name ?? 'the system'}`}.
          </p>
          <DiffView
            url={`/api/cc/publications/${publication.id}/diff`}
            branch={LIVE_BRANCH_NAME}
            empty="This publication changed no files."
          />
        </div>
      )}
    </Dialog>
  )
}

/**
 * "Revert only this publication": a new branch with one commit undoing just its changes, opened for
 * review. When later publications changed the same fields, the refusal lists them.
 */
export function RevertDialog({
  publication,
  onClose,
}: {
  publication: PublicationEntry | null
  onClose: () => void
}) {
  const api = useApi()
  const revert = useMutation(
    (id: string) => api<{ branch: { name: string } }>('POST', `/api/cc/publications/${id}/revert`),
    { onDone: (r) => location.assign(ccPath('branch', { branch: r.branch.name })) },
  )
  const error = revert.error
  const conflicts = asFileConflicts(revert.apiError?.body?.conflicts)
  const busy = revert.busy || revert.succeeded
  const close = () => {
    revert.reset()
    onClose()
  }
  return (
    <Dialog open={publication !== null} title="Revert only this publication?" onClose={close} wide>
      {publication && (
        <div className="stack">
          <p>
            A new branch undoes only publication {named(publication)}; later publications stay. Review it,
            then publish it like any branch. These files change back:
          </p>
          <ul className="cc-files">
            {publication.files.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          {conflicts.length === 0 && <FormError message={error} />}
          {conflicts.length > 0 && (
            <section data-testid="revert-conflicts" aria-label="Fields changed again later">
              <p role="alert">
                Later publications changed these fields again, so this publication cannot be reverted on its
                own. Change them by hand on a branch:
              </p>
              <ul className="cc-list">
                {conflicts.flatMap((f) =>
                  f.conflicts.map((c) => (
                    <li key={`${f.path}${c.pointer}`}>
                      <code>{f.path}</code> <code>{c.pointer || '/'}</code>: this publication made it{' '}
                      {jsonValue(c.base)}, live has {jsonValue(c.theirs)}, before it was {jsonValue(c.mine)}
                    </li>
                  )),
                )}
              </ul>
            </section>
          )}
          <div className="cc-row">
            {conflicts.length === 0 && (
              <button
                type="button"
                className="button button-primary"
                disabled={busy}
                onClick={() => revert.run(publication.id)}
              >
                {busy ? 'Creating the branch…' : 'Create the revert branch'}
              </button>
            )}
            <button type="button" className="button" onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </Dialog>
  )
}
