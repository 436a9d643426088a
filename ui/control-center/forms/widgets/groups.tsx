/** The registry's group widgets: an object or list drawn as a fieldset of labelled parts. */
import type { Page } from '../../../../schemas/generated/page'
import { type ImageRow, toImageField } from '../../images-api'
import { FieldInput } from '../Field'
import type { WidgetProps } from '../types'

type ImageValue = NonNullable<Page['image']>
type CtaValue = NonNullable<Page['cta']>
type FaqValue = NonNullable<Page['faq']>

/** An image (`common.schema.json#/$defs/Image`): pick an uploaded one (fills all four) or type them. */
export function ImageWidget(p: WidgetProps) {
  const img = p.value as ImageValue | undefined
  const images = p.ctx.images as ImageRow[] | null | undefined
  const update = (patch: Partial<ImageValue>) =>
    p.onChange({ src: '', alt: '', width: 1, height: 1, ...img, ...patch })
  const pick = p.idFor(`${p.pointer}/pick`)
  return (
    <fieldset className="pf-group">
      <legend>{p.label}</legend>
      {img?.src && /^\/(images|uploads)\//.test(img.src) && (
        <img className="pf-thumb" src={img.src} alt="" width={img.width} height={img.height} />
      )}
      {!p.readOnly && (
        <div className="cc-field pf-field">
          <label htmlFor={pick}>Choose an uploaded image</label>
          <select
            id={pick}
            value={images?.find((i) => i.src === img?.src)?.id ?? ''}
            disabled={!images}
            onChange={(e) => {
              const chosen = images?.find((i) => i.id === e.target.value)
              if (chosen) p.onChange(toImageField(chosen))
            }}
          >
            <option value="">
              {images ? (images.length ? 'Choose…' : 'No uploaded images on this branch') : 'Loading images…'}
            </option>
            {images?.map((i) => (
              <option key={i.id} value={i.id}>
                {i.id} — {i.decorative ? 'decorative' : i.alt || 'no alt text'} ({i.width}×{i.height})
              </option>
            ))}
          </select>
          <small className="muted">
            Fills the address, alt text, width and height; upload new images on the Images screen.
          </small>
        </div>
      )}
      {p.field(
        `${p.pointer}/src`,
        'Image address',
        (f) => (
          <FieldInput
            field={f}
            value={img?.src ?? ''}
            readOnly={p.readOnly}
            onChange={(e) => (e.target.value ? update({ src: e.target.value }) : p.onChange(undefined))}
          />
        ),
        'A path under the site (starting with /) or an https URL.',
      )}
      {p.field(
        `${p.pointer}/alt`,
        'Alt text',
        (f) => (
          <FieldInput
            field={f}
            value={img?.alt ?? ''}
            readOnly={p.readOnly || !img}
            onChange={(e) => update({ alt: e.target.value })}
          />
        ),
        'Read to screen readers; empty only for a decorative image.',
      )}
      <div className="pf-row">
        {(['width', 'height'] as const).map((k) =>
          p.field(`${p.pointer}/${k}`, k === 'width' ? 'Width' : 'Height', (f) => (
            <FieldInput
              field={f}
              type="number"
              min={1}
              value={img?.[k] ?? ''}
              readOnly={p.readOnly || !img}
              onChange={(e) => update({ [k]: Number(e.target.value) || 1 })}
            />
          )),
        )}
      </div>
    </fieldset>
  )
}

/** A call to action: label, where it goes, and whether the phone number shows beside it. */
export function CtaWidget(p: WidgetProps) {
  const cta = p.value as CtaValue | undefined
  const update = (patch: Partial<CtaValue>) => {
    const next = { label: '', ...cta, ...patch } as Record<string, unknown>
    for (const k of Object.keys(next))
      if ((next[k] === '' || next[k] === undefined) && k !== 'label') delete next[k]
    p.onChange(next.label === '' && Object.keys(next).length === 1 ? undefined : next)
  }
  return (
    <fieldset className="pf-group">
      <legend>{p.label}</legend>
      {p.field(`${p.pointer}/label`, 'Button label', (f) => (
        <FieldInput
          field={f}
          value={cta?.label ?? ''}
          readOnly={p.readOnly}
          onChange={(e) => update({ label: e.target.value })}
        />
      ))}
      {p.field(
        `${p.pointer}/href`,
        'Goes to',
        (f) => (
          <FieldInput
            field={f}
            value={cta?.href ?? ''}
            placeholder="The page's destination"
            readOnly={p.readOnly}
            onChange={(e) => update({ href: e.target.value })}
          />
        ),
        'A relative path; empty: the page’s destination.',
      )}
      {p.field(`${p.pointer}/phone`, 'Also offer the phone number (in business hours)', (f) => (
        <FieldInput
          field={f}
          type="checkbox"
          className="pf-check"
          checked={cta?.phone === true}
          disabled={p.readOnly || !cta}
          onChange={(e) => update({ phone: e.target.checked || undefined })}
        />
      ))}
    </fieldset>
  )
}

/** Questions and answers: add, edit, remove. */
export function FaqWidget(p: WidgetProps) {
  const faq = (p.value as FaqValue | undefined) ?? []
  const put = (i: number, patch: Partial<FaqValue[number]>) =>
    p.onChange(faq.map((f, j) => (j === i ? { ...f, ...patch } : f)))
  return (
    <fieldset className="pf-group">
      <legend>{p.label}</legend>
      {faq.length === 0 && <p className="muted">No questions yet.</p>}
      <ol className="pf-faq">
        {faq.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a question's place in the list is its identity
          <li key={i}>
            {p.field(`${p.pointer}/${i}/question`, `Question ${i + 1}`, (ids) => (
              <FieldInput
                field={ids}
                value={f.question}
                readOnly={p.readOnly}
                onChange={(e) => put(i, { question: e.target.value })}
              />
            ))}
            {p.field(`${p.pointer}/${i}/answer`, `Answer ${i + 1}`, (ids) => (
              <textarea
                id={ids.id}
                rows={2}
                value={f.answer}
                readOnly={p.readOnly}
                aria-describedby={ids.describedBy}
                aria-invalid={ids.invalid || undefined}
                onChange={(e) => put(i, { answer: e.target.value })}
              />
            ))}
            {!p.readOnly && (
              <button
                type="button"
                className="button cc-small"
                onClick={() => p.onChange(faq.filter((_, j) => j !== i))}
              >
                Remove question {i + 1}
              </button>
            )}
          </li>
        ))}
      </ol>
      {!p.readOnly && (
        <button
          type="button"
          className="button cc-small"
          onClick={() => p.onChange([...faq, { question: '', answer: '' }])}
        >
          Add a question
        </button>
      )}
    </fieldset>
  )
}
