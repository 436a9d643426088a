import { useId, useMemo, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import imageSchema from '../../../schemas/image.schema.json'
import { useApi } from '../api'
import { useCc } from '../cc-context'
import { fileUrl } from '../file-links'
import { IMAGE_ALT_UI } from '../forms/kinds/image-ui'
import { SchemaForm } from '../forms/SchemaForm'
import type { JsonSchema } from '../forms/types'
import { formatBytes, IMAGE_ACCEPT, type ImageRow, type ImageUse, imagesUrl, sendImage } from '../images-api'
import { ErrorState, Loading } from '../States'
import { useMutation } from '../use-mutation'
import { useResource } from '../use-resource'

/** Where a use is edited: the page or experiment screen, else the file's Source editor at the field. */
function linkOfUse(u: ImageUse, branch: string): string {
  if (u.kind === 'page') return ccPath('page', { page: u.id }, branch)
  if (u.kind === 'experiment') return ccPath('experiment', { experiment: u.id }, branch)
  return fileUrl(u.path, branch, u.pointer)
}

/** "the image", "variant 2's image": where in the document the image sits, in words. */
function fieldWords(pointer: string): string {
  const variant = /^\/variants\/(\d+)\/overrides\/image$/.exec(pointer)
  if (variant) return `variant ${Number(variant[1]) + 1}'s image`
  const name = pointer.split('/').filter(Boolean).join(' › ')
  return name || 'the document'
}

function UsedByList({ usedBy, branch }: { usedBy: ImageUse[]; branch: string }) {
  return (
    <ul className="cc-list" data-testid="image-used-by">
      {usedBy.map((u) => (
        <li key={`${u.path}${u.pointer}`}>
          <span className="cc-kind">{u.kind}</span> <a href={linkOfUse(u, branch)}>{u.id}</a>{' '}
          <span className="muted">({fieldWords(u.pointer)})</span>
        </li>
      ))}
    </ul>
  )
}

/** `/images/{image}?branch=B`: the image large, its facts, alt text form, uses, Replace and Delete. */
export function ImageDetail({ branch, id }: { branch: string; id: string }) {
  const { revision, changed } = useCc()
  const [tick, setTick] = useState(0)
  const res = useResource<{ head: string; image: ImageRow }>(
    imagesUrl(branch, `/${encodeURIComponent(id)}`),
    `${revision}:${tick}`,
  )
  const refresh = () => {
    setTick((t) => t + 1)
    changed()
  }
  return (
    <div className="cc-page fw-img">
      <p className="fw-img-back">
        <a href={ccPath('images', {}, branch)}>← All images</a>
      </p>
      <h1>
        Image <code>{id}</code>
      </h1>
      {res.error ? (
        <ErrorState message={res.error} retry={res.reload} />
      ) : !res.data ? (
        <Loading what="the image" />
      ) : (
        <div className="fw-img-detail">
          <figure className="cc-card fw-img-figure">
            <img
              src={res.data.image.src}
              alt={res.data.image.decorative ? '' : res.data.image.alt}
              width={res.data.image.width}
              height={res.data.image.height}
            />
            <figcaption>
              <Facts image={res.data.image} />
            </figcaption>
          </figure>
          <div className="fw-img-side">
            <AltForm key={res.data.image.id} branch={branch} image={res.data.image} onSaved={refresh} />
            <section className="cc-card" aria-labelledby="fw-img-used-h">
              <h2 id="fw-img-used-h" className="cc-h3">
                Used by ({res.data.image.usedBy.length})
              </h2>
              {res.data.image.usedBy.length ? (
                <UsedByList usedBy={res.data.image.usedBy} branch={branch} />
              ) : (
                <p className="muted">Nothing on this branch uses this image yet.</p>
              )}
            </section>
            <Replace branch={branch} image={res.data.image} onReplaced={refresh} />
            <Delete branch={branch} image={res.data.image} />
          </div>
        </div>
      )}
    </div>
  )
}

function Facts({ image }: { image: ImageRow }) {
  return (
    <dl className="fw-img-facts-list">
      <dt>Size</dt>
      <dd>
        {image.width}×{image.height} px, {formatBytes(image.bytes)} WebP
      </dd>
      <dt>URL</dt>
      <dd>
        <code>{image.src}</code>
      </dd>
      <dt>Uploaded as</dt>
      <dd>{image.originalName}</dd>
      {image.credit && (
        <>
          <dt>Credit</dt>
          <dd>{image.credit}</dd>
        </>
      )}
      {image.missing && (
        <>
          <dt>Problem</dt>
          <dd className="cc-form-error">The WebP file is missing from this branch.</dd>
        </>
      )}
    </dl>
  )
}

/** Alt text (required unless decorative) and credit, from image.schema.json, committed on Save. */
function AltForm({ branch, image, onSaved }: { branch: string; image: ImageRow; onSaved: () => void }) {
  const api = useApi()
  const { may, offerBranch } = useCc()
  const [doc, setDoc] = useState<Record<string, unknown>>(() => ({
    alt: image.alt,
    ...(image.decorative ? { decorative: true } : {}),
    ...(image.credit ? { credit: image.credit } : {}),
  }))
  const [refused, setRefused] = useState<string | null>(null)
  const live = branch === LIVE_BRANCH_NAME
  const readOnly = live || !may('branch.edit')
  const decorative = doc.decorative === true
  const alt = typeof doc.alt === 'string' ? doc.alt : ''
  const save = useMutation(
    () =>
      api('PUT', imagesUrl(branch, `/${encodeURIComponent(image.id)}`), {
        alt: decorative ? '' : alt,
        decorative,
        credit: typeof doc.credit === 'string' ? doc.credit : '',
      }),
    { onDone: onSaved },
  )
  const ui = useMemo(
    () => ({
      ...IMAGE_ALT_UI,
      fields: IMAGE_ALT_UI.fields.map((f) =>
        f.pointer === '/alt' && decorative ? { ...f, label: 'Alt text', readOnly: true } : f,
      ),
    }),
    [decorative],
  )
  const submit = () => {
    if (live) return offerBranch()
    if (!decorative && !alt.trim()) {
      setRefused('Alt text is required unless the image is decorative: describe what it shows.')
      document.getElementById('img-alt')?.focus()
      return
    }
    setRefused(null)
    save.run()
  }
  const serverAlt = save.error?.startsWith('alt:') ? save.error : null
  const message = refused ?? serverAlt
  return (
    <section className="cc-card" aria-labelledby="fw-img-alt-h">
      <h2 id="fw-img-alt-h" className="cc-h3">
        Alt text and credit
      </h2>
      {!decorative && !image.alt.trim() && (
        <p className="cc-chip cc-chip-error fw-img-needs-alt">
          This image needs alt text before it is published.
        </p>
      )}
      <SchemaForm
        schema={imageSchema as JsonSchema}
        ui={ui}
        value={decorative ? { ...doc, alt: '' } : doc}
        onChange={(next) => {
          // While decorative the alt text shows empty and read-only; what was typed before is kept.
          setDoc(decorative ? { ...next, alt: doc.alt } : next)
          if (refused && (next.decorative === true || String(next.alt ?? '').trim())) setRefused(null)
        }}
        errors={message ? [{ file: '', line: 0, column: 0, pointer: '/alt', message }] : []}
        readOnly={readOnly}
        label="Alt text and credit"
        className="fw-img-form"
        onSubmit={submit}
        footer={
          <div className="cc-row">
            {live ? (
              <button type="button" className="button cc-small" onClick={offerBranch}>
                Create a branch to edit
              </button>
            ) : (
              !readOnly && (
                <button type="submit" className="button button-primary" disabled={save.busy}>
                  {save.busy ? 'Saving…' : 'Save'}
                </button>
              )
            )}
            <span role="status" className={save.error ? 'cc-form-error' : 'muted'}>
              {save.succeeded
                ? 'Saved (committed on this branch)'
                : save.error
                  ? `Not saved: ${save.error}`
                  : ''}
            </span>
          </div>
        }
      />
    </section>
  )
}

function Replace({ branch, image, onReplaced }: { branch: string; image: ImageRow; onReplaced: () => void }) {
  const { may } = useCc()
  const inputId = useId()
  const [progress, setProgress] = useState(0)
  const [name, setName] = useState('')
  const send = useMutation(
    (file: File) => {
      setProgress(0)
      return sendImage<{ image: ImageRow; updated: string[] }>(
        imagesUrl(branch, `/${encodeURIComponent(image.id)}/file`),
        'PUT',
        file,
        setProgress,
      )
    },
    { onDone: onReplaced },
  )
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  const done = send.output
  return (
    <section className="cc-card" aria-labelledby={`${inputId}-h`}>
      <h2 id={`${inputId}-h`} className="cc-h3">
        Replace
      </h2>
      <p className="muted">
        A new file keeps the id <code>{image.id}</code> and gets a new URL; every page, variant, article and
        brand using this image is updated in the same commit.
      </p>
      <label className="button" htmlFor={inputId}>
        Choose a new file
      </label>
      <input
        id={inputId}
        className="cc-visually-hidden"
        type="file"
        accept={IMAGE_ACCEPT}
        data-testid="image-replace-input"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0]
          e.currentTarget.value = ''
          if (f) {
            send.reset()
            setName(f.name)
            send.run(f)
          }
        }}
      />
      {send.busy && (
        <p className="fw-img-progress">
          <progress max={1} value={progress} aria-label="Uploading the new file" />
        </p>
      )}
      {send.succeeded && done && (
        <p role="status">
          Replaced with {name}: {done.image.width}×{done.image.height}, new URL {done.image.src}
          {done.updated.length
            ? `; ${done.updated.length} file${done.updated.length > 1 ? 's' : ''} updated to it`
            : ''}
          .
        </p>
      )}
      {send.error && (
        <p className="cc-form-error" role="alert">
          Not replaced: {send.error}
        </p>
      )}
    </section>
  )
}

function Delete({ branch, image }: { branch: string; image: ImageRow }) {
  const api = useApi()
  const { may, changed } = useCc()
  const [confirming, setConfirming] = useState(false)
  const remove = useMutation(() => api('DELETE', imagesUrl(branch, `/${encodeURIComponent(image.id)}`)), {
    onDone: () => {
      changed()
      location.assign(ccPath('images', {}, branch))
    },
    onError: () => setConfirming(false),
  })
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  const usedBy = (remove.apiError?.body as { usedBy?: ImageUse[] } | null)?.usedBy ?? []
  return (
    <section className="cc-card" aria-labelledby="fw-img-delete-h">
      <h2 id="fw-img-delete-h" className="cc-h3">
        Delete
      </h2>
      {confirming ? (
        <div className="cc-row">
          <span>Delete {image.id} from this branch?</span>
          <button
            type="button"
            className="button fw-img-danger"
            disabled={remove.busy}
            onClick={() => remove.run()}
          >
            Yes, delete
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => (image.usedBy.length ? remove.run() : setConfirming(true))}
        >
          Delete image
        </button>
      )}
      {remove.error && (
        <div className="cc-form-error" role="alert" data-testid="image-delete-refused">
          <p>Not deleted: {remove.error}</p>
          {usedBy.length > 0 && <UsedByList usedBy={usedBy} branch={branch} />}
        </div>
      )}
    </section>
  )
}
