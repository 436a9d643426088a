import { type FormEvent, useState } from 'react'
import { CC_BRANCH_NAME, LIVE_BRANCH_NAME } from '../../engine/render/control-center-routes'
import type { Branch } from '../../schemas/generated/cc-answers/common'
import { useApi } from './api'
import { Dialog } from './Dialog'
import { FormError } from './States'
import { useMutation } from './use-mutation'
import { useResource } from './use-resource'

/** The name the server gives a title (`Spring promo` → `spring-promo`). */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
}

/** Title → generated name, base, description; creates the branch and hands its name back. */
export function NewBranchDialog({
  open,
  onClose,
  onCreated,
  title = 'New branch',
  intro,
}: {
  open: boolean
  onClose: () => void
  onCreated: (name: string) => void
  title?: string
  intro?: string
}) {
  const api = useApi()
  const [name, setName] = useState<string | null>(null)
  const [branchTitle, setBranchTitle] = useState('')
  const bases = useResource<{ branches: Branch[] }>(open ? '/api/cc/branches' : null)
  const generated = slugOf(branchTitle)
  const effective = name ?? generated
  const nameOk = CC_BRANCH_NAME.test(effective) && effective !== LIVE_BRANCH_NAME
  const create = useMutation(
    (body: { title: string; name: string; description?: string; base?: string }) =>
      api<{ branch: Branch }>('POST', '/api/cc/branches', body),
    { onDone: (r) => onCreated(r.branch.name) },
  )
  const { busy, error } = create
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const description = String(form.get('description') ?? '').trim()
    const base = String(form.get('base') ?? LIVE_BRANCH_NAME)
    create.run({
      title: branchTitle.trim(),
      name: effective,
      ...(description ? { description } : {}),
      ...(base !== LIVE_BRANCH_NAME ? { base } : {}),
    })
  }
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        {intro && <p>{intro}</p>}
        <label className="cc-field">
          <span>Title</span>
          <input
            name="title"
            required
            value={branchTitle}
            onChange={(e) => setBranchTitle(e.target.value)}
            placeholder="Spring promo"
          />
        </label>
        <label className="cc-field">
          <span>Name</span>
          <input
            name="name"
            value={effective}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={effective !== '' && !nameOk}
            aria-describedby="cc-branch-name-help"
          />
          <small id="cc-branch-name-help" className="muted">
            Lower-case letters, digits and dashes; “live” is reserved.
          </small>
        </label>
        <label className="cc-field">
          <span>Base</span>
          <select name="base" defaultValue={LIVE_BRANCH_NAME}>
            <option value={LIVE_BRANCH_NAME}>live (published)</option>
            {(bases.data?.branches ?? []).map((b) => (
              <option key={b.name} value={b.name}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label className="cc-field">
          <span>Description (optional)</span>
          <textarea name="description" rows={2} />
        </label>
        <FormError message={error} />
        <div className="cc-row">
          <button
            type="submit"
            className="button button-primary"
            disabled={busy || !branchTitle.trim() || !nameOk}
          >
            {busy ? 'Creating…' : 'Create branch'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  )
}
