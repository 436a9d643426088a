import { ccPath } from '../../../engine/render/control-center-routes'
import type { Author } from '../../../schemas/generated/author'
import type { AuthorEntry } from './use-authors'

const READING: Record<string, string> = {
  'grade-6': 'Grade 6',
  'grade-8': 'Grade 8',
  'grade-10': 'Grade 10',
  'grade-12': 'Grade 12',
}

/** One author's byline and persona, readable at a glance. */
export function AuthorCard({
  entry,
  branch,
  selected,
}: {
  entry: AuthorEntry
  branch: string
  selected: boolean
}) {
  const a = entry.author
  const id = entry.path.replace(/^definitions\/authors\//, '').replace(/\.json$/, '')
  const edit = ccPath('content-factory-authors', {}, branch, { file: entry.path })
  return (
    <article
      className="cc-card cf-author"
      aria-labelledby={`cf-author-${id}`}
      aria-current={selected ? 'true' : undefined}
      data-testid="author-card"
    >
      <div className="cc-row-between">
        <h2 className="cc-h3" id={`cf-author-${id}`}>
          {a?.name ?? id} <code className="muted cf-author-id">{id}</code>
          {entry.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
          {entry.problems > 0 && (
            <span className="cc-chip cc-chip-error">
              {entry.problems} problem{entry.problems > 1 ? 's' : ''}
            </span>
          )}
        </h2>
        <a className="button cc-small" href={edit} aria-label={`Edit ${a?.name ?? id} in the Source editor`}>
          Edit
        </a>
      </div>
      {!a ? (
        <p className="cc-error">This file is not valid JSON: open it to fix it.</p>
      ) : (
        <>
          <p className="cf-bio">{a.bio}</p>
          {a.credentials?.length ? <p className="muted">{a.credentials.join(' · ')}</p> : null}
          <Persona author={a} />
        </>
      )}
    </article>
  )
}

function Persona({ author }: { author: Author }) {
  const p = author.persona
  if (!p)
    return (
      <p className="cf-note">
        No persona: runs as this author follow the house rules only. Add a <code>persona</code> block (voice,
        audience, expertise, reading level, “do not” list) in the Source editor.
      </p>
    )
  return (
    <dl className="cf-persona">
      <div>
        <dt>Voice</dt>
        <dd>{p.voice}</dd>
      </div>
      <div>
        <dt>Audience</dt>
        <dd>{p.audience}</dd>
      </div>
      <div>
        <dt>Expertise</dt>
        <dd>{p.expertise?.length ? p.expertise.join(', ') : '—'}</dd>
      </div>
      <div>
        <dt>Reading level</dt>
        <dd>{READING[p.readingLevel ?? 'grade-8'] ?? p.readingLevel}</dd>
      </div>
      <div className="cf-persona-wide">
        <dt>Does not</dt>
        <dd>
          {p.doNot?.length ? (
            <ul className="cf-donot">
              {p.doNot.map((x) => (
                <li key={x}>{x}</li>
              ))}
            </ul>
          ) : (
            '—'
          )}
        </dd>
      </div>
    </dl>
  )
}
