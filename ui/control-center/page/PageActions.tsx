import { useId, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type { FileDoc } from '../../../schemas/generated/cc-answers/branches'
import type { PageInfo } from '../../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { FormError } from '../States'
import { useMutation } from '../use-mutation'
import { writeNewPageDraft } from './new-page-draft'

const KEY = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The next revision's key: `grocery-r2` → `grocery-r3`, `grocery` → `grocery-r2`. */
export function nextRevisionKey(key: string): string {
  const m = /^(.*-r)(\d+)$/.exec(key)
  return m ? `${m[1]}${Number(m[2]) + 1}` : `${key}-r2`
}

/** A path with the page's key segment swapped for the copy's: `/grocery-r2/{step?}` → `/grocery-r3/{step?}`. */
export function copyPath(path: string | null, from: string, to: string): string {
  const p = path ?? `/${from}`
  const swapped = p
    .split('/')
    .map((s) => (s === from ? to : s))
    .join('/')
  return swapped === p ? `/${to}` : swapped
}

/**
 * Duplicate (a new page file from this one, under a new key and path, as my draft) and Delete
 * (refused while a phone rule, an experiment or another page names this one, with the reasons).
 */
export function PageActions({
  branch,
  page,
  path,
  references,
  recheck,
}: {
  branch: string
  page: PageInfo
  path: string
  references: { file: string; pointer: string; reason: string }[] | null
  /** Asks again what names the page (my drafts may have changed it since the editor opened). */
  recheck: () => void
}) {
  const { may, changed } = useCc()
  const api = useApi()
  const [open, setOpen] = useState<'duplicate' | 'delete' | null>(null)
  const remove = useMutation(
    () => api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(path)}`), { text: null }),
    {
      onDone: () => {
        changed()
        location.assign(ccPath('pages', {}, branch))
      },
    },
  )
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  return (
    <>
      <button type="button" className="button cc-small" onClick={() => setOpen('duplicate')}>
        Duplicate
      </button>
      <button
        type="button"
        className="button cc-small"
        onClick={() => {
          recheck()
          setOpen('delete')
        }}
      >
        Delete
      </button>
      {open === 'duplicate' && (
        <DuplicateDialog branch={branch} page={page} path={path} onClose={() => setOpen(null)} />
      )}
      <Dialog open={open === 'delete'} title={`Delete page ${page.key}`} onClose={() => setOpen(null)}>
        {references === null ? (
          <p>Checking what names this page…</p>
        ) : references.length > 0 ? (
          <div className="stack" data-testid="delete-refused">
            <p role="alert">
              This page cannot be deleted while{' '}
              {references.length === 1 ? 'something names' : `${references.length} things name`} it. Change
              these first:
            </p>
            <ul>
              {references.map((r) => (
                <li key={`${r.file}${r.pointer}`}>
                  {r.reason} (
                  <code>
                    {r.file} {r.pointer}
                  </code>
                  )
                </li>
              ))}
            </ul>
            <div className="cc-row">
              <button type="button" className="button" onClick={() => setOpen(null)}>
                Close
              </button>
            </div>
          </div>
        ) : (
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault()
              remove.run()
            }}
          >
            <p>
              Deleting is a draft on this branch: commit it from the branch's Changes, and it leaves the site
              when the branch is published. Nothing names this page.
            </p>
            <FormError message={remove.error} />
            <div className="cc-row">
              <button
                type="submit"
                className="button button-danger"
                disabled={remove.busy || remove.succeeded}
              >
                Delete page
              </button>
              <button type="button" className="button" onClick={() => setOpen(null)}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  )
}

function DuplicateDialog({
  branch,
  page,
  path,
  onClose,
}: {
  branch: string
  page: PageInfo
  path: string
  onClose: () => void
}) {
  const api = useApi()
  const { changed } = useCc()
  const base = useId()
  const [key, setKey] = useState(nextRevisionKey(page.key))
  const [route, setRoute] = useState(copyPath(page.path, page.key, nextRevisionKey(page.key)))
  const duplicate = useMutation(
    async () => {
      const source = await api<FileDoc>('GET', branchApi(branch, `/file?path=${encodeURIComponent(path)}`))
      const text = source.draft?.text ?? source.text
      if (!text) throw new Error('The page has no content to copy.')
      const doc = JSON.parse(text) as Record<string, unknown>
      delete doc.key
      doc.path = route
      delete doc.aliases
      await writeNewPageDraft(api, branch, key, doc)
    },
    {
      onDone: () => {
        changed()
        location.assign(ccPath('page', { page: key }, branch))
      },
    },
  )
  // Busy from the request until the browser leaves for the copy.
  const busy = duplicate.busy || duplicate.succeeded
  const keyError = KEY.test(key) ? null : 'Lowercase letters, digits and single hyphens, like grocery-r3.'
  return (
    <Dialog open title={`Duplicate page ${page.key}`} onClose={onClose}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault()
          if (!keyError) duplicate.run()
        }}
      >
        <p>
          A copy of every field under a new key and path, as your draft on this branch. Aliases are not
          copied: two pages cannot share a route.
        </p>
        <div className="cc-field">
          <label htmlFor={`${base}-key`}>New page key</label>
          <input
            id={`${base}-key`}
            value={key}
            aria-invalid={!!keyError || undefined}
            aria-describedby={`${base}-key-err`}
            onChange={(e) => {
              setKey(e.target.value)
              setRoute(copyPath(page.path, page.key, e.target.value))
            }}
          />
          <small id={`${base}-key-err`} className="cc-form-error">
            {keyError}
          </small>
        </div>
        <div className="cc-field">
          <label htmlFor={`${base}-path`}>Path</label>
          <input id={`${base}-path`} value={route} onChange={(e) => setRoute(e.target.value)} />
        </div>
        <FormError message={duplicate.error} />
        <div className="cc-row">
          <button type="submit" className="button button-primary" disabled={busy || !!keyError}>
            {busy ? 'Duplicating…' : 'Duplicate'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  )
}
