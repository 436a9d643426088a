import { useActorRef, useSelector } from '@xstate/react'
import { useId, useRef, useState } from 'react'
import { type ActorRefFrom, fromPromise } from 'xstate'
import { IMAGE_MAX_SIDE_PX, IMAGE_UPLOAD_MAX_BYTES } from '../../../engine/content/image-limits'
import { uploadQueueMachine } from '../../../engine/control-center/machines/upload-queue-machine'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import { useCc } from '../cc-context'
import {
  formatBytes,
  IMAGE_ACCEPT,
  type ImageList,
  type ImageRow,
  imagesUrl,
  needsAlt,
  sendImage,
} from '../images-api'
import { Empty, WithResource } from '../States'
import { useResource } from '../use-resource'
import { ImageDetail } from './ImageDetail'
import '../images.css'

type Filter = 'all' | 'missing-alt' | 'unused'
const FILTERS: { id: Filter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'missing-alt', label: 'Missing alt text' },
  { id: 'unused', label: 'Unused' },
]

/**
 * The upload queue as an actor of engine/control-center/machines/upload-queue-machine.ts: one file at
 * a time, in order, each with its progress and its own error. The newest file is listed first.
 */
function useUploadQueue(branch: string, onUploaded: () => void) {
  const latest = useRef({ branch, onUploaded })
  latest.current = { branch, onUploaded }
  const self = useRef<ActorRefFrom<typeof uploadQueueMachine>>(null)
  const actor = useActorRef(
    uploadQueueMachine.provide({
      actors: {
        upload: fromPromise<unknown, { key: number; file: unknown }>(async ({ input }) => {
          const r = await sendImage<{ image: ImageRow }>(
            imagesUrl(latest.current.branch),
            'POST',
            input.file as File,
            (f) => self.current?.send({ type: 'PROGRESS', key: input.key, fraction: f }),
          )
          return r.image
        }),
      },
      actions: { uploaded: () => latest.current.onUploaded() },
    }),
  )
  self.current = actor
  const items = useSelector(actor, (s) => s.context.items)
  return {
    list: [...items].reverse().map((u) => ({ ...u, image: u.result as ImageRow | undefined })),
    add: (files: FileList | File[]) =>
      actor.send({
        type: 'ADD',
        files: [...files].map((file) => ({ file, name: file.name, size: file.size })),
      }),
  }
}

/**
 * `/images?branch=B`: the branch's uploaded images as a grid (thumbnail, alt text, size, uses), an
 * upload zone (drop or pick several files; each is sent on its own with its progress and error), and
 * `/images/{image}`: one image's alt text, uses, replace and delete (ImageDetail).
 */
export default function ImagesScreen() {
  const { route, branch } = useCc()
  return route.screen === 'image' ? (
    <ImageDetail branch={branch as string} id={route.params.image} />
  ) : (
    <ImagesList branch={branch as string} />
  )
}

function ImagesList({ branch }: { branch: string }) {
  const { revision } = useCc()
  const list = useResource<ImageList>(imagesUrl(branch), revision)
  return (
    <div className="cc-page fw-img">
      <h1>Images</h1>
      <UploadZone branch={branch} onUploaded={list.reload} />
      <WithResource resource={list} what="images">
        {(d) => <ImageGrid branch={branch} images={d.images} />}
      </WithResource>
    </div>
  )
}

function UploadZone({ branch, onUploaded }: { branch: string; onUploaded: () => void }) {
  const { may, offerBranch, changed } = useCc()
  const uploads = useUploadQueue(branch, () => {
    onUploaded()
    changed()
  })
  const [over, setOver] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const inputId = useId()
  const helpId = useId()
  const live = branch === LIVE_BRANCH_NAME
  const allowed = may('branch.edit')

  const add = (files: FileList | File[]) => {
    if (live) offerBranch()
    else uploads.add(files)
  }

  if (!allowed) return null
  return (
    <section className="cc-card fw-img-upload" aria-labelledby={`${inputId}-h`}>
      <h2 id={`${inputId}-h`} className="cc-h3">
        Upload
      </h2>
      {live ? (
        <p>
          Live is read-only.{' '}
          <button type="button" className="button cc-small" onClick={offerBranch}>
            Create a branch to upload
          </button>
        </p>
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard way
        <div
          className={`fw-img-drop${over ? ' fw-img-drop-over' : ''}`}
          data-testid="image-drop"
          onDragOver={(e) => {
            e.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault()
            setOver(false)
            if (e.dataTransfer.files.length) add(e.dataTransfer.files)
          }}
        >
          <p id={helpId}>
            Drop images here, or choose files. JPEG, PNG, WebP, GIF or AVIF, up to{' '}
            {IMAGE_UPLOAD_MAX_BYTES / (1024 * 1024)} MB each; SVG is refused. Each is stored as WebP, at most{' '}
            {IMAGE_MAX_SIDE_PX} px on its longest side, without location or camera data.
          </p>
          <label className="button button-primary" htmlFor={inputId}>
            Choose images
          </label>
          <input
            id={inputId}
            ref={input}
            className="cc-visually-hidden fw-img-input"
            type="file"
            multiple
            accept={IMAGE_ACCEPT}
            aria-describedby={helpId}
            data-testid="image-input"
            onChange={(e) => {
              if (e.currentTarget.files?.length) add(e.currentTarget.files)
              e.currentTarget.value = ''
            }}
          />
        </div>
      )}
      {uploads.list.length > 0 && (
        <ul className="fw-img-uploads" aria-label="Uploads">
          {uploads.list.map((u) => (
            <li key={u.key} className="fw-img-upload-row" data-state={u.state}>
              <span className="fw-img-upload-name">{u.name}</span>
              <span className="muted">{formatBytes(u.size)}</span>
              {u.state === 'failed' ? (
                <span className="cc-form-error" role="alert">
                  Not uploaded: {u.error}
                </span>
              ) : u.state === 'done' && u.image ? (
                <span role="status">
                  Uploaded as{' '}
                  <a href={ccPath('image', { image: u.image.id }, branch)}>
                    {u.image.id} — {needsAlt(u.image) ? 'add its alt text' : 'open'}
                  </a>
                </span>
              ) : (
                <span className="fw-img-progress">
                  <progress
                    max={1}
                    value={u.state === 'waiting' ? 0 : u.progress}
                    aria-label={`Uploading ${u.name}`}
                  />
                  <span className="muted">
                    {u.state === 'waiting'
                      ? 'Waiting'
                      : u.state === 'encoding'
                        ? 'Converting to WebP…'
                        : `${Math.round(u.progress * 100)}%`}
                  </span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function ImageGrid({ branch, images }: { branch: string; images: ImageRow[] }) {
  const [filter, setFilter] = useState<Filter>('all')
  if (!images.length)
    return <Empty>This branch has no uploaded images yet. Upload one above to use it on a page.</Empty>
  const shown = images.filter((i) =>
    filter === 'missing-alt' ? needsAlt(i) : filter === 'unused' ? i.usedBy.length === 0 : true,
  )
  const count = (f: Filter) =>
    f === 'missing-alt'
      ? images.filter(needsAlt).length
      : f === 'unused'
        ? images.filter((i) => !i.usedBy.length).length
        : images.length
  return (
    <section aria-label="Uploaded images">
      <fieldset className="cc-chips cc-fieldset fw-img-filters">
        <legend className="cc-visually-hidden">Show</legend>
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            className="cc-chip-button"
            aria-pressed={filter === f.id}
            onClick={() => setFilter(f.id)}
          >
            {f.label} ({count(f.id)})
          </button>
        ))}
      </fieldset>
      {shown.length === 0 ? (
        <Empty>No image matches this filter.</Empty>
      ) : (
        <ul className="fw-img-grid" data-testid="image-grid">
          {shown.map((i) => (
            <li key={i.id} className="fw-img-card" data-testid="image-card">
              <a className="fw-img-thumb" href={ccPath('image', { image: i.id }, branch)}>
                <img
                  src={i.src}
                  alt={i.decorative ? '' : i.alt}
                  width={i.width}
                  height={i.height}
                  loading="lazy"
                  decoding="async"
                />
                <span className="fw-img-id">{i.id}</span>
              </a>
              <p className={needsAlt(i) ? 'fw-img-alt' : 'fw-img-alt muted'}>
                {i.decorative ? (
                  <span className="cc-chip">decorative</span>
                ) : needsAlt(i) ? (
                  <span className="cc-chip cc-chip-error">missing alt text</span>
                ) : (
                  i.alt
                )}
              </p>
              <p className="fw-img-facts muted">
                {i.width}×{i.height} · {formatBytes(i.bytes)} ·{' '}
                {i.usedBy.length === 0 ? 'unused' : `used by ${i.usedBy.length}`}
                {i.missing && <span className="cc-chip cc-chip-error">file missing</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
