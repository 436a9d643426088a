import { useId, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import { ApiError, useApi } from '../api'
import { useCc } from '../cc-context'
import { fileUrl } from '../file-links'
import { formatBytes, IMAGE_ACCEPT, type ImageRow, type ImageUse, imagesUrl, sendImage } from '../images-api'
import { ErrorState, Loading } from '../States'
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

/** Alt text (required unless decorative) and credit, committed on Save. */
function AltForm({ branch, image, onSaved }: { branch: string; image: ImageRow; onSaved: () => void }) {
  const api = useApi()
  const { may, offerBranch } = useCc()
  const base = useId()
  const [alt, setAlt] = useState(image.alt)
  const [decorative, setDecorative] = useState(image.decorative ?? false)
  const [credit, setCredit] = useState(image.credit ?? '')
  const [altError, setAltError] = useState<string | null>(null)
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' | 'failed'; message?: string }>({
    kind: 'idle',
  })
  const live = branch === LIVE_BRANCH_NAME
  const readOnly = live || !may('branch.edit')
  const missing = !decorative && !alt.trim()

  const save = async () => {
    if (live) {
      offerBranch()
      return
    }
    if (missing) {
      setAltError('Alt text is required unless the image is decorative: describe what it shows.')
      document.getElementById(`${base}-alt`)?.focus()
      return
    }
    setAltError(null)
    setState({ kind: 'saving' })
    try {
      await api('PUT', imagesUrl(branch, `/${encodeURIComponent(image.id)}`), {
        alt: decorative ? '' : alt,
        decorative,
        credit,
      })
      setState({ kind: 'saved' })
      onSaved()
    } catch (e) {
      const message = (e as Error).message
      if (message.startsWith('alt:')) setAltError(message)
      setState({ kind: 'failed', message })
    }
  }

  return (
    <section className="cc-card" aria-labelledby={`${base}-h`}>
      <h2 id={`${base}-h`} className="cc-h3">
        Alt text and credit
      </h2>
      {!decorative && !image.alt.trim() && (
        <p className="cc-chip cc-chip-error fw-img-needs-alt">
          This image needs alt text before it is published.
        </p>
      )}
      <form
        className="stack fw-img-form"
        aria-label="Alt text and credit"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <div className="cc-field">
          <label htmlFor={`${base}-alt`}>Alt text{decorative ? '' : ' (required)'}</label>
          <textarea
            id={`${base}-alt`}
            rows={3}
            maxLength={300}
            value={decorative ? '' : alt}
            disabled={decorative || readOnly}
            aria-invalid={altError ? true : undefined}
            aria-describedby={`${base}-alt-help ${base}-alt-err`}
            onChange={(e) => {
              setAlt(e.currentTarget.value)
              if (altError && e.currentTarget.value.trim()) setAltError(null)
            }}
          />
          <small id={`${base}-alt-help`} className="muted">
            What the image shows, for someone who cannot see it, e.g. “A couple reading a Medicare card at a
            kitchen table”. Read by screen readers; not a caption.
          </small>
          <p id={`${base}-alt-err`} className="cc-form-error" role={altError ? 'alert' : undefined}>
            {altError}
          </p>
        </div>
        <label className="cc-check">
          <input
            type="checkbox"
            checked={decorative}
            disabled={readOnly}
            onChange={(e) => {
              setDecorative(e.currentTarget.checked)
              if (e.currentTarget.checked) setAltError(null)
            }}
          />
          Decorative: it adds nothing a reader would miss (screen readers skip it)
        </label>
        <div className="cc-field">
          <label htmlFor={`${base}-credit`}>Credit (optional)</label>
          <input
            id={`${base}-credit`}
            value={credit}
            maxLength={300}
            disabled={readOnly}
            onChange={(e) => setCredit(e.currentTarget.value)}
          />
        </div>
        <div className="cc-row">
          {live ? (
            <button type="button" className="button cc-small" onClick={offerBranch}>
              Create a branch to edit
            </button>
          ) : (
            !readOnly && (
              <button type="submit" className="button button-primary" disabled={state.kind === 'saving'}>
                {state.kind === 'saving' ? 'Saving…' : 'Save'}
              </button>
            )
          )}
          <span role="status" className={state.kind === 'failed' ? 'cc-form-error' : 'muted'}>
            {state.kind === 'saved'
              ? 'Saved (committed on this branch)'
              : state.kind === 'failed'
                ? `Not saved: ${state.message}`
                : ''}
          </span>
        </div>
      </form>
    </section>
  )
}

function Replace({ branch, image, onReplaced }: { branch: string; image: ImageRow; onReplaced: () => void }) {
  const { may } = useCc()
  const inputId = useId()
  const [state, setState] = useState<{
    kind: 'idle' | 'sending' | 'done' | 'failed'
    progress?: number
    message?: string
  }>({ kind: 'idle' })
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  const send = async (file: File) => {
    setState({ kind: 'sending', progress: 0 })
    try {
      const r = await sendImage<{ image: ImageRow; updated: string[] }>(
        imagesUrl(branch, `/${encodeURIComponent(image.id)}/file`),
        'PUT',
        file,
        (progress) => setState({ kind: 'sending', progress }),
      )
      setState({
        kind: 'done',
        message: `Replaced with ${file.name}: ${r.image.width}×${r.image.height}, new URL ${r.image.src}${r.updated.length ? `; ${r.updated.length} file${r.updated.length > 1 ? 's' : ''} updated to it` : ''}.`,
      })
      onReplaced()
    } catch (e) {
      setState({ kind: 'failed', message: (e as Error).message })
    }
  }
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
          if (f) void send(f)
        }}
      />
      {state.kind === 'sending' && (
        <p className="fw-img-progress">
          <progress max={1} value={state.progress ?? 0} aria-label="Uploading the new file" />
        </p>
      )}
      {state.kind === 'done' && <p role="status">{state.message}</p>}
      {state.kind === 'failed' && (
        <p className="cc-form-error" role="alert">
          Not replaced: {state.message}
        </p>
      )}
    </section>
  )
}

function Delete({ branch, image }: { branch: string; image: ImageRow }) {
  const api = useApi()
  const { may, changed } = useCc()
  const [confirming, setConfirming] = useState(false)
  const [refusal, setRefusal] = useState<{ message: string; usedBy: ImageUse[] } | null>(null)
  const [busy, setBusy] = useState(false)
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  const remove = async () => {
    setBusy(true)
    try {
      await api('DELETE', imagesUrl(branch, `/${encodeURIComponent(image.id)}`))
      changed()
      location.assign(ccPath('images', {}, branch))
    } catch (e) {
      const body = e instanceof ApiError ? (e.body as { usedBy?: ImageUse[] } | null) : null
      setRefusal({ message: (e as Error).message, usedBy: body?.usedBy ?? [] })
      setConfirming(false)
    } finally {
      setBusy(false)
    }
  }
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
            disabled={busy}
            onClick={() => void remove()}
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
          onClick={() => (image.usedBy.length ? void remove() : setConfirming(true))}
        >
          Delete image
        </button>
      )}
      {refusal && (
        <div className="cc-form-error" role="alert" data-testid="image-delete-refused">
          <p>Not deleted: {refusal.message}</p>
          {refusal.usedBy.length > 0 && <UsedByList usedBy={refusal.usedBy} branch={branch} />}
        </div>
      )}
    </section>
  )
}
