import { useId, useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { PageEditorData } from '../../../schemas/generated/cc-answers/editor'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { FormError } from '../States'
import { useMutation } from '../use-mutation'
import { useResource } from '../use-resource'
import { writeNewPageDraft } from './new-page-draft'

const KEY = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const PATH = /^\/[^\s#]*$/

/** What each template starts with: the fields it reads, filled with placeholders to replace. */
const TEMPLATES: Record<string, { label: string; start: (headline: string) => Record<string, unknown> }> = {
  landing: {
    label: 'Landing page (headline, benefits, call to action)',
    start: (headline) => ({
      headline,
      subheadline: '',
      benefits: [],
      cta: { label: 'Get started' },
    }),
  },
  funnel: {
    label: 'Funnel page (a multi-step quote form)',
    start: (headline) => ({ headline, destination: '/thank-you' }),
  },
  'thank-you': { label: 'Thank-you page', start: (headline) => ({ headline }) },
  legal: { label: 'Legal page', start: () => ({ legal: 'privacy' }) },
}

/**
 * New page, as a wizard in one dialog: template, key, path, brands (and the funnel for a funnel
 * page). It writes the page as my draft on the branch and opens it in the page editor.
 */
export function NewPageDialog({ branch, onClose }: { branch: string; onClose: () => void }) {
  const api = useApi()
  const { changed } = useCc()
  const base = useId()
  const lookups = useResource<PageEditorData>(branchApi(branch, '/page-editor'))
  const [template, setTemplate] = useState('landing')
  const [key, setKey] = useState('')
  const [path, setPath] = useState('')
  const [brands, setBrands] = useState<string[]>([])
  const [form, setForm] = useState('')
  const [headline, setHeadline] = useState('')
  const [tried, setTried] = useState(false)
  const create = useMutation((doc: Record<string, unknown>) => writeNewPageDraft(api, branch, key, doc), {
    onDone: () => {
      changed()
      location.assign(`${ccPath('page', { page: key }, branch)}&tab=content`)
    },
  })
  // Busy from the request until the browser leaves for the new page.
  const busy = create.busy || create.succeeded
  const route = path || (key ? `/${key}` : '')
  const errors = {
    key: !key
      ? 'Give the page a key, like grocery-r3.'
      : KEY.test(key)
        ? null
        : 'Lowercase letters, digits and single hyphens.',
    path: route && !PATH.test(route) ? 'A path starts with / and has no spaces or #.' : null,
    brands: brands.length === 0 ? 'Choose at least one brand to serve the page on.' : null,
    form: template === 'funnel' && !form ? 'A funnel page needs a funnel.' : null,
    headline: template !== 'legal' && !headline.trim() ? 'Write the headline visitors see first.' : null,
  }
  const invalid = Object.values(errors).some(Boolean)
  const err = (k: keyof typeof errors) =>
    tried && errors[k] ? (
      <small id={`${base}-${k}-err`} className="cc-form-error">
        {errors[k]}
      </small>
    ) : null
  return (
    <Dialog open title="New page" onClose={onClose} wide>
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setTried(true)
          if (invalid) return
          const doc: Record<string, unknown> = {
            $schema: '../../schemas/page.schema.json',
            ...(path ? { path } : {}),
            brands,
            template,
            title: headline.trim() || key,
            ...(template === 'funnel' ? { form } : {}),
            ...TEMPLATES[template].start(headline.trim()),
          }
          for (const [k, v] of Object.entries(doc)) if (v === '') delete doc[k]
          create.run(doc)
        }}
      >
        <div className="cc-field">
          <label htmlFor={`${base}-template`}>Template</label>
          <select id={`${base}-template`} value={template} onChange={(e) => setTemplate(e.target.value)}>
            {Object.entries(TEMPLATES).map(([id, t]) => (
              <option key={id} value={id}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div className="cc-field">
          <label htmlFor={`${base}-key`}>Page key</label>
          <input
            id={`${base}-key`}
            value={key}
            aria-invalid={(tried && !!errors.key) || undefined}
            aria-describedby={`${base}-key-err`}
            onChange={(e) => setKey(e.target.value.trim())}
          />
          {err('key')}
        </div>
        <div className="cc-field">
          <label htmlFor={`${base}-path`}>Path</label>
          <input
            id={`${base}-path`}
            value={path}
            placeholder={key ? `/${key}` : '/my-page'}
            aria-invalid={(tried && !!errors.path) || undefined}
            aria-describedby={`${base}-path-help ${base}-path-err`}
            onChange={(e) => setPath(e.target.value.trim())}
          />
          <small id={`${base}-path-help`} className="muted">
            Empty: <code>{key ? `/${key}` : '/<key>'}</code>.{' '}
            {template === 'funnel' ? 'Add /{step?} so each step has its own address.' : null}
          </small>
          {err('path')}
        </div>
        <fieldset className="pf-brands" aria-describedby={`${base}-brands-err`}>
          <legend>Brands</legend>
          {lookups.error && <p className="cc-form-error">{lookups.error}</p>}
          {!lookups.data && !lookups.error && <p className="muted">Loading brands…</p>}
          {lookups.data?.brands.map((b) => (
            <label key={b.id} className="cc-check">
              <input
                type="checkbox"
                checked={brands.includes(b.id)}
                onChange={(e) =>
                  setBrands(e.target.checked ? [...brands, b.id] : brands.filter((x) => x !== b.id))
                }
              />
              {b.name} <span className="muted">({b.id})</span>
            </label>
          ))}
          {err('brands')}
        </fieldset>
        {template === 'funnel' && (
          <div className="cc-field">
            <label htmlFor={`${base}-form`}>Funnel</label>
            <select
              id={`${base}-form`}
              value={form}
              aria-invalid={(tried && !!errors.form) || undefined}
              aria-describedby={`${base}-form-err`}
              onChange={(e) => setForm(e.target.value)}
            >
              <option value="">Choose a funnel…</option>
              {lookups.data?.funnels.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
            {err('form')}
          </div>
        )}
        {template !== 'legal' && (
          <div className="cc-field">
            <label htmlFor={`${base}-headline`}>Headline</label>
            <input
              id={`${base}-headline`}
              value={headline}
              aria-invalid={(tried && !!errors.headline) || undefined}
              aria-describedby={`${base}-headline-err`}
              onChange={(e) => setHeadline(e.target.value)}
            />
            {err('headline')}
          </div>
        )}
        <FormError message={create.error} />
        <div className="cc-row">
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create page'}
          </button>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  )
}
