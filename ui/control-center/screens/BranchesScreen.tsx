import { useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { Branch } from '../../../schemas/generated/cc-answers/common'
import type { PublicationEntry } from '../../../schemas/generated/cc-answers/publishing'
import { ActivityTable } from '../ActivityTable'
import { useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { NewBranchDialog } from '../NewBranchDialog'
import { PublicationDiffDialog, publicationKindLabel, RevertDialog } from '../PublicationDialogs'
import { Empty, FormError, laTime, ScrollRegion, shortSha, WithResource } from '../States'
import { Tabs } from '../Tabs'
import { useMutation } from '../use-mutation'
import { useResource } from '../use-resource'

const authorName = (a: Branch['lastCommit']) => a?.author ?? ''

/** `/branches`: Branches, Live history, Activity; New branch. */
export default function BranchesScreen() {
  const { may } = useCc()
  const [tab, setTab] = useState(() => new URLSearchParams(location.search).get('tab') ?? 'branches')
  const [creating, setCreating] = useState(false)
  const select = (t: string) => {
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  return (
    <div className="cc-page">
      <div className="cc-title-row">
        <h1>Branches</h1>
        {may('branch.create') && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New branch
          </button>
        )}
      </div>
      <Tabs
        label="Branches"
        selected={tab}
        onSelect={select}
        tabs={[
          { id: 'branches', label: 'Branches' },
          { id: 'history', label: 'Live history' },
          { id: 'activity', label: 'Activity' },
        ]}
      >
        {tab === 'branches' && <BranchTable />}
        {tab === 'history' && <LiveHistory />}
        {tab === 'activity' && <ActivityTable />}
      </Tabs>
      <NewBranchDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(name) => location.assign(ccPath('pages', {}, name))}
      />
    </div>
  )
}

function BranchTable() {
  const list = useResource<{ live: { commit: string }; branches: Branch[] }>('/api/cc/branches')
  return (
    <WithResource resource={list} what="branches">
      {(d) =>
        d.branches.length === 0 ? (
          <Empty>No open branches. Create one to start editing; live is read-only.</Empty>
        ) : (
          <ScrollRegion label="Branches">
            <table className="cc-table cc-cards" data-testid="branch-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Title</th>
                  <th scope="col">Author</th>
                  <th scope="col">Last commit</th>
                  <th scope="col">Status</th>
                  <th scope="col">Changed files</th>
                  <th scope="col">Problems</th>
                  <th scope="col">Scheduled</th>
                </tr>
              </thead>
              <tbody>
                {d.branches.map((b) => (
                  <tr key={b.name}>
                    <td>
                      <a href={ccPath('branch', { branch: b.name })}>{b.name}</a>
                      {b.overlaps.length > 0 && (
                        <span
                          className="cc-chip cc-chip-warn"
                          title={b.overlaps.map((o) => `${o.path}: ${o.branches.join(', ')}`).join('\n')}
                        >
                          overlaps
                        </span>
                      )}
                    </td>
                    <td data-label="Title">{b.title}</td>
                    <td data-label="Author">{b.createdBy?.name ?? '—'}</td>
                    <td data-label="Last commit">
                      {b.lastCommit ? (
                        <div>
                          <code>{shortSha(b.lastCommit.sha)}</code> {b.lastCommit.subject}
                          <div className="muted">
                            {authorName(b.lastCommit)} · {laTime(b.lastCommit.date)}
                          </div>
                        </div>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td data-label="Status">
                      <span className="cc-chip">{b.status}</span>
                    </td>
                    <td data-label="Changed files">
                      {b.files.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        <ul className="cc-files">
                          {b.files.map((f) => (
                            <li key={f.path}>
                              <span className="cc-kind">{f.kind}</span> {f.id}{' '}
                              <span className="muted">({f.status})</span>
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td data-label="Problems">
                      {b.problems ? <span className="cc-chip cc-chip-error">{b.problems}</span> : '0'}
                    </td>
                    <td data-label="Scheduled">{b.scheduledAt ? laTime(b.scheduledAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )
      }
    </WithResource>
  )
}

function LiveHistory() {
  const { may } = useCc()
  const api = useApi()
  const pubs = useResource<{ live: { commit: string }; publications: PublicationEntry[] }>(
    '/api/cc/publications',
  )
  const [confirm, setConfirm] = useState<PublicationEntry | null>(null)
  const [diffOf, setDiffOf] = useState<PublicationEntry | null>(null)
  const [revertOf, setRevertOf] = useState<PublicationEntry | null>(null)
  const rollback = useMutation(
    ({ p, live }: { p: PublicationEntry; live: string }) =>
      api('POST', '/api/cc/rollback', { publication: p.id, expectedLive: live }),
    {
      onDone: () => {
        setConfirm(null)
        pubs.reload()
      },
    },
  )
  return (
    <WithResource resource={pubs} what="live history">
      {(d) =>
        d.publications.length === 0 ? (
          <Empty>Nothing has been published from the control center yet.</Empty>
        ) : (
          <>
            <ScrollRegion label="Live history">
              <table className="cc-table cc-cards" data-testid="live-history">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Branch</th>
                    <th scope="col">Files</th>
                    <th scope="col">Commit</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {d.publications.map((p) => (
                    <tr key={p.id}>
                      <td data-label="When">{laTime(p.at)}</td>
                      <td data-label="Who">
                        {p.actor?.name ?? (p.kind === 'outside' ? 'unknown (no hook ran)' : 'system')}
                      </td>
                      <td data-label="Kind" data-kind={p.kind}>
                        {publicationKindLabel(p.kind)}
                      </td>
                      <td data-label="Branch">{p.branch ?? '—'}</td>
                      <td data-label="Files">
                        <ul className="cc-files">
                          {p.files.map((f) => (
                            <li key={f}>{f}</li>
                          ))}
                        </ul>
                      </td>
                      <td data-label="Commit">
                        <span>
                          <code>{shortSha(p.oldCommit)}</code> → <code>{shortSha(p.newCommit)}</code>
                        </span>
                      </td>
                      <td data-label="Actions">
                        <div className="cc-row">
                          <button type="button" className="button cc-small" onClick={() => setDiffOf(p)}>
                            View diff
                          </button>
                          {p.oldCommit && may('branch.create') && (
                            <button type="button" className="button cc-small" onClick={() => setRevertOf(p)}>
                              Revert only this publication
                            </button>
                          )}
                          {p.oldCommit && may('publish') && (
                            <button type="button" className="button cc-small" onClick={() => setConfirm(p)}>
                              Roll back to before this
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            <PublicationDiffDialog publication={diffOf} onClose={() => setDiffOf(null)} />
            <RevertDialog publication={revertOf} onClose={() => setRevertOf(null)} />
            <Dialog open={confirm !== null} title="Roll back live?" onClose={() => setConfirm(null)}>
              {confirm && (
                <div className="stack">
                  <p>
                    Live goes back to how it was before the publication of {laTime(confirm.at)}
                    {confirm.branch ? ` (branch ${confirm.branch})` : ''}, as a new publication. These files
                    change:
                  </p>
                  <ul className="cc-files">
                    {confirm.files.map((f) => (
                      <li key={f}>{f}</li>
                    ))}
                  </ul>
                  <FormError message={rollback.error} />
                  <div className="cc-row">
                    <button
                      type="button"
                      className="button button-primary"
                      disabled={rollback.busy}
                      onClick={() => rollback.run({ p: confirm, live: d.live.commit })}
                    >
                      {rollback.busy ? 'Rolling back…' : 'Roll back'}
                    </button>
                    <button type="button" className="button" onClick={() => setConfirm(null)}>
                      Cancel
                    </button>
                  </div>
                </div>
              )}
            </Dialog>
          </>
        )
      }
    </WithResource>
  )
}
