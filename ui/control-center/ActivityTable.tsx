import { useEffect, useState } from 'react'
import type { AuditEntry } from '../../schemas/generated/cc-answers/activity'
import { auditSentence } from './audit-sentence'
import { Empty, laTime, ScrollRegion, WithResource } from './States'
import { useResource } from './use-resource'

const AUDIT_ACTIONS = [
  'login',
  'logout',
  'branch.create',
  'branch.archive',
  'commit',
  'merge-live',
  'review.approve',
  'review.changes-requested',
  'publish',
  'publish.refused',
  'publish.abandoned',
  'publish.schedule',
  'publish.scheduled-fired',
  'rollback',
  'publication.revert',
  'preview.grant',
  'run.start',
  'run.cancel',
  'run.finish',
  'run.to-article',
]

/** The audit log, newest first, with filters (actor, action, branch); `branch` fixes the branch filter. */
export function ActivityTable({ branch }: { branch?: string }) {
  const [filters, setFilters] = useState({ actor: '', action: '', branch: branch ?? '' })
  const [applied, setApplied] = useState(filters)
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(applied)) if (v.trim()) q.set(k, v.trim())
  q.set('limit', '100')
  const entries = useResource<{ entries: AuditEntry[] }>(`/api/cc/audit?${q}`)
  // The actor filter takes an id: offer everyone seen so far by name.
  const [actors, setActors] = useState<Map<string, string>>(new Map())
  useEffect(() => {
    const seen = entries.data?.entries.flatMap((e) => (e.actor ? [[e.actor.id, e.actor.name] as const] : []))
    if (seen?.some(([id]) => !actors.has(id))) setActors(new Map([...actors, ...seen]))
  }, [entries.data, actors])
  return (
    <div className="stack">
      <form
        className="cc-filters"
        onSubmit={(e) => {
          e.preventDefault()
          setApplied(filters)
        }}
      >
        <label className="cc-field">
          <span>Actor</span>
          <select value={filters.actor} onChange={(e) => setFilters({ ...filters, actor: e.target.value })}>
            <option value="">Anyone</option>
            {[...actors].map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="cc-field">
          <span>Action</span>
          <input
            value={filters.action}
            list="cc-audit-actions"
            placeholder="commit, publish…"
            onChange={(e) => setFilters({ ...filters, action: e.target.value })}
          />
          <datalist id="cc-audit-actions">
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        {branch === undefined && (
          <label className="cc-field">
            <span>Branch</span>
            <input
              value={filters.branch}
              onChange={(e) => setFilters({ ...filters, branch: e.target.value })}
            />
          </label>
        )}
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      <WithResource resource={entries} what="activity">
        {(d) =>
          d.entries.length === 0 ? (
            <Empty>No activity matches.</Empty>
          ) : (
            <ScrollRegion label="Activity">
              <table className="cc-table cc-cards" data-testid="activity">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">What happened</th>
                  </tr>
                </thead>
                <tbody>
                  {d.entries.map((e) => (
                    <tr key={e.id} data-action={e.action}>
                      <td className="cc-when">{laTime(e.at)}</td>
                      <td>
                        <p className="cc-sentence">{auditSentence(e)}</p>
                        <details className="cc-details">
                          <summary>Details</summary>
                          <dl>
                            <dt>Action</dt>
                            <dd>
                              <code>{e.action}</code>
                            </dd>
                            <dt>Who</dt>
                            <dd>{e.actor ? `${e.actor.name} (${e.actor.email || e.actor.id})` : 'system'}</dd>
                            {e.target && (
                              <>
                                <dt>Target</dt>
                                <dd>{e.targetName ? `${e.targetName} (${e.target})` : e.target}</dd>
                              </>
                            )}
                            {e.ip && (
                              <>
                                <dt>IP</dt>
                                <dd>{e.ip}</dd>
                              </>
                            )}
                            <dt>Audit id</dt>
                            <dd>{e.id}</dd>
                          </dl>
                          <pre>{JSON.stringify(e.details, null, 2)}</pre>
                        </details>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )
        }
      </WithResource>
    </div>
  )
}
