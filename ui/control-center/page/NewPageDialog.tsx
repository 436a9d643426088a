import { type ReactNode, useId, useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { FileDoc } from '../../../schemas/generated/cc-answers/branches'
import type { PageEditorData } from '../../../schemas/generated/cc-answers/editor'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { FormError } from '../States'
import { jsonText } from '../use-json-draft'
import { useMutation } from '../use-mutation'
import { type Resource, useResource } from '../use-resource'
import { draftExists } from './draft-exists'

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

/** What the wizard asks. */
interface NewPage {
  template: string
  key: string
  path: string
  brands: string[]
  form: string
  headline: string
}

/** The new page's document: the template's fields with placeholders, empty ones left out. */
function pageDoc(v: NewPage): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    $schema: '../../schemas/page.schema.json',
    ...(v.path ? { path: v.path } : {}),
    brands: v.brands,
    template: v.template,
    title: v.headline.trim() || v.key,
    ...(v.template === 'funnel' ? { form: v.form } : {}),
    ...TEMPLATES[v.template].start(v.headline.trim()),
  }
  for (const [k, x] of Object.entries(doc)) if (x === '') delete doc[k]
  return doc
}

/** Each field's problem, or null. */
function pageErrors({ template, key, path, brands, form, headline }: NewPage) {
  const route = path || (key ? `/${key}` : '')
  return {
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
  const [v, setV] = useState<NewPage>({
    template: 'landing',
    key: '',
    path: '',
    brands: [],
    form: '',
    headline: '',
  })
  const set = (p: Partial<NewPage>) => setV({ ...v, ...p })
  const { template, key, path, brands, form, headline } = v
  const [tried, setTried] = useState(false)
  const create = useMutation(
    async () => {
      const target = `definitions/pages/${key}.json`
      if (await draftExists(api, branch, target))
        throw new Error(`A page "${key}" already exists on this branch: choose another key.`)
      await api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(target)}`), {
        text: jsonText(pageDoc(v)),
      })
    },
    {
      onDone: () => {
        changed()
        location.assign(`${ccPath('page', { page: key }, branch)}&tab=content`)
      },
    },
  )
  // On success the page is on its way to the new page: the form stays busy.
  const busy = create.busy || create.succeeded
  const error = create.error
  const errors = pageErrors(v)
  const invalid = Object.values(errors).some(Boolean)
  const { field, err } = wizardFields(base, tried, errors)
  return (
    <Dialog open title="New page" onClose={onClose} wide>
      <form
        className="stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setTried(true)
          if (!invalid) create.run()
        }}
      >
        <div className="cc-field">
          <label htmlFor={`${base}-template`}>Template</label>
          <select
            id={`${base}-template`}
            value={template}
            onChange={(e) => set({ template: e.target.value })}
          >
            {Object.entries(TEMPLATES).map(([id, t]) => (
              <option key={id} value={id}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        {field('key', 'Page key', (a) => (
          <input {...a} value={key} onChange={(e) => set({ key: e.target.value.trim() })} />
        ))}
        {field(
          'path',
          'Path',
          (a) => (
            <input
              {...a}
              value={path}
              placeholder={key ? `/${key}` : '/my-page'}
              onChange={(e) => set({ path: e.target.value.trim() })}
            />
          ),
          <>
            Empty: <code>{key ? `/${key}` : '/<key>'}</code>.{' '}
            {template === 'funnel' ? 'Add /{step?} so each step has its own address.' : null}
          </>,
        )}
        <BrandsField
          id={`${base}-brands-err`}
          lookups={lookups}
          brands={brands}
          onChange={(next) => set({ brands: next })}
          error={err('brands')}
        />
        {template === 'funnel' &&
          field('form', 'Funnel', (a) => (
            <select {...a} value={form} onChange={(e) => set({ form: e.target.value })}>
              <option value="">Choose a funnel…</option>
              {lookups.data?.funnels.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          ))}
        {template !== 'legal' &&
          field('headline', 'Headline', (a) => (
            <input {...a} value={headline} onChange={(e) => set({ headline: e.target.value })} />
          ))}
        <FormError message={error} />
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

type Problems = ReturnType<typeof pageErrors>
/** What a field's control takes: its id, and its error (shown once the wizard was submitted). */
type ControlProps = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string }

/** The wizard's labelled fields and their errors, under ids from `base`. */
function wizardFields(base: string, tried: boolean, errors: Problems) {
  const err = (k: keyof Problems) =>
    tried && errors[k] ? (
      <small id={`${base}-${k}-err`} className="cc-form-error">
        {errors[k]}
      </small>
    ) : null
  const field = (
    k: keyof Problems,
    label: string,
    control: (a: ControlProps) => ReactNode,
    help?: ReactNode,
  ) => (
    <div className="cc-field">
      <label htmlFor={`${base}-${k}`}>{label}</label>
      {control({
        id: `${base}-${k}`,
        'aria-invalid': (tried && !!errors[k]) || undefined,
        'aria-describedby': help ? `${base}-${k}-help ${base}-${k}-err` : `${base}-${k}-err`,
      })}
      {help && (
        <small id={`${base}-${k}-help`} className="muted">
          {help}
        </small>
      )}
      {err(k)}
    </div>
  )
  return { field, err }
}

/** The brands to serve the new page on, as checkboxes (the branch's brands). */
function BrandsField({
  id,
  lookups,
  brands,
  onChange,
  error,
}: {
  id: string
  lookups: Resource<PageEditorData>
  brands: string[]
  onChange: (brands: string[]) => void
  error: ReactNode
}) {
  return (
    <fieldset className="pf-brands" aria-describedby={id}>
      <legend>Brands</legend>
      {lookups.error && <p className="cc-form-error">{lookups.error}</p>}
      {!lookups.data && !lookups.error && <p className="muted">Loading brands…</p>}
      {lookups.data?.brands.map((b) => (
        <label key={b.id} className="cc-check">
          <input
            type="checkbox"
            checked={brands.includes(b.id)}
            onChange={(e) =>
              onChange(e.target.checked ? [...brands, b.id] : brands.filter((x) => x !== b.id))
            }
          />
          {b.name} <span className="muted">({b.id})</span>
        </label>
      ))}
      {error}
    </fieldset>
  )
}
