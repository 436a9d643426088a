import { type FormEvent, type ReactNode, useId, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type { Author } from '../../../schemas/generated/author'
import type { Run, RunBrief } from '../../../schemas/generated/cc-answers/runs'
import { type ApiError, branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { useMutation } from '../use-mutation'

type Field = 'author' | 'topic' | 'carrier' | 'angle' | 'keywords' | 'words' | 'outline'

const FIELD_OF: Record<string, Field> = {
  '/author': 'author',
  '/brief/topic': 'topic',
  '/brief/carrier': 'carrier',
  '/brief/angle': 'angle',
  '/brief/keywords': 'keywords',
  '/brief/words': 'words',
  '/brief/outline': 'outline',
}

/** The server's 400 problems ("/brief/topic: must …") at their fields; the rest for the form. */
export function fieldErrors(e: ApiError): { fields: Partial<Record<Field, string>>; rest: string[] } {
  const problems = (e.body?.problems as string[] | undefined) ?? [e.message]
  const fields: Partial<Record<Field, string>> = {}
  const rest: string[] = []
  for (const p of problems) {
    const m = /^(\/[^:\s]*): (.*)$/.exec(p.replace(/ \(and \d+ more problems?\)$/, ''))
    const key = m && Object.keys(FIELD_OF).find((k) => m[1] === k || m[1].startsWith(`${k}/`))
    if (m && key) {
      const f = FIELD_OF[key]
      fields[f] = fields[f] ? `${fields[f]}; ${m[2]}` : m[2]
    } else rest.push(p)
  }
  return { fields, rest }
}

const list = (s: string, sep: RegExp) =>
  s
    .split(sep)
    .map((x) => x.trim())
    .filter(Boolean)

type Values = Record<Field, string>

/** The brief the form's values ask for (empty optional fields left out). */
function briefOf(v: Values): RunBrief {
  const brief: RunBrief = { topic: v.topic.trim() }
  if (v.carrier.trim()) brief.carrier = v.carrier.trim()
  if (v.angle.trim()) brief.angle = v.angle.trim()
  const keywords = list(v.keywords, /,/)
  if (keywords.length) brief.keywords = keywords
  if (v.words.trim()) brief.words = Number(v.words)
  const outline = list(v.outline, /\n/)
  if (outline.length) brief.outline = outline
  return brief
}

/** One labelled field of the form, with its hint and its error from the server's 400. */
function fieldRenderer({
  id,
  values: v,
  setValues,
  disabled,
  errors,
}: {
  id: string
  values: Values
  setValues: (v: Values) => void
  disabled: boolean
  errors: Partial<Record<Field, string>>
}) {
  return (name: Field, label: string, input: (p: object) => ReactNode, hint?: string) => {
    const err = errors[name]
    const errId = `${id}-${name}-error`
    const hintId = `${id}-${name}-hint`
    const describedBy = [hint ? hintId : '', err ? errId : ''].filter(Boolean).join(' ') || undefined
    return (
      <div className={`cc-field cf-field-${name}`}>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        {input({
          id: `${id}-${name}`,
          name,
          value: v[name],
          disabled,
          'aria-invalid': err ? true : undefined,
          'aria-describedby': describedBy,
          onChange: (e: { target: { value: string } }) => setValues({ ...v, [name]: e.target.value }),
        })}
        {hint && (
          <small id={hintId} className="muted">
            {hint}
          </small>
        )}
        {err && (
          <small id={errId} className="cc-form-error cf-field-error">
            {err}
          </small>
        )}
      </div>
    )
  }
}

/** The "New run" form: the brief for one article, written as one of the branch's authors. */
export function RunForm({
  branch,
  authors,
  configured,
}: {
  branch: string
  authors: Author[]
  configured: boolean
}) {
  const api = useApi()
  const { may, offerBranch } = useCc()
  const id = useId()
  const q = new URLSearchParams(location.search)
  const [v, setV] = useState<Values>({
    author: q.get('author') ?? authors[0]?.id ?? '',
    topic: q.get('topic') ?? '',
    carrier: q.get('carrier') ?? '',
    angle: '',
    keywords: '',
    words: '800',
    outline: '',
  })
  const start = useMutation(
    (brief: RunBrief) => api<{ run: Run }>('POST', branchApi(branch, '/runs'), { author: v.author, brief }),
    { onDone: (r) => location.assign(ccPath('content-factory-run', { run: r.run.id }, branch)) },
  )
  // On success the page is on its way to the run: the form stays busy.
  const busy = start.busy || start.succeeded
  const errors: { fields: Partial<Record<Field, string>>; rest: string[] } =
    start.apiError?.status === 400
      ? fieldErrors(start.apiError)
      : { fields: {}, rest: start.error ? [start.error] : [] }
  const allowed = may('run.manage')
  const onLive = branch === LIVE_BRANCH_NAME
  const disabled = !configured || !allowed || onLive || busy

  function submit(e: FormEvent) {
    e.preventDefault()
    start.run(briefOf(v))
  }
  const field = fieldRenderer({ id, values: v, setValues: setV, disabled, errors: errors.fields })

  return (
    <form className="cc-card cf-form" aria-labelledby={`${id}-h`} onSubmit={submit} noValidate>
      <h2 className="cc-h3" id={`${id}-h`}>
        New run
      </h2>
      {!allowed ? (
        <p className="muted">Viewers can read runs; starting one needs the editor role.</p>
      ) : onLive ? (
        <p className="cf-note">
          Runs write their article to a branch, and live is read-only.{' '}
          <button type="button" className="button cc-small" onClick={offerBranch}>
            Create a branch
          </button>
        </p>
      ) : null}
      <div className="cf-form-grid">
        {field('author', 'Author', (p) => (
          <select {...p}>
            {authors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id}){a.persona ? '' : ' — no persona'}
              </option>
            ))}
          </select>
        ))}
        {field('topic', 'Topic', (p) => (
          <input {...p} required placeholder="e.g. Humana dental" />
        ))}
        {field('carrier', 'Carrier (optional)', (p) => (
          <input {...p} placeholder="e.g. Humana" />
        ))}
        {field('words', 'Target words', (p) => (
          <input {...p} type="number" min={200} max={3000} step={50} inputMode="numeric" />
        ))}
        {field('angle', 'Angle (optional)', (p) => (
          <input {...p} placeholder="e.g. what changes for dental care in 2027" />
        ))}
        {field(
          'keywords',
          'Keywords (optional)',
          (p) => (
            <input {...p} />
          ),
          'Separated by commas.',
        )}
        {field(
          'outline',
          'Outline (optional)',
          (p) => (
            <textarea {...p} rows={3} />
          ),
          'One heading per line.',
        )}
      </div>
      {errors.rest.length > 0 && (
        <div className="cc-form-error" role="alert">
          {errors.rest.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      )}
      {Object.keys(errors.fields).length > 0 && (
        <p className="cc-form-error" role="alert">
          Check the fields marked above.
        </p>
      )}
      <div className="cc-row">
        <button type="submit" className="button button-primary" disabled={disabled}>
          {busy ? 'Starting…' : 'Start run'}
        </button>
      </div>
    </form>
  )
}
