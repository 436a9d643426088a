import { useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import type { BranchChecks } from '../../../schemas/generated/cc-answers/branches'
import type { Branch } from '../../../schemas/generated/cc-answers/common'
import { ActivityTable } from '../ActivityTable'
import { branchApi } from '../api'
import { BranchActions } from '../branch/BranchActions'
import { ChangesTab, ChecksTab, HistoryTab, ReviewTab } from '../branch/BranchTabs'
import { useCc } from '../cc-context'
import { ImpactTab } from '../ImpactTab'
import { ErrorState, Loading, laTime, shortSha } from '../States'
import { Tabs } from '../Tabs'
import { useResource } from '../use-resource'

type Checks = BranchChecks

/** `/branches/{branch}`: header, Changes, Checks, Impact, Review, History, Activity, and the branch's actions. */
export default function BranchScreen() {
  const { branch: name } = useCc()
  const branch = name as string
  const [revision, setRevision] = useState(0)
  const res = useResource<{ branch: Branch }>(branchApi(branch), revision)
  const checks = useResource<Checks>(branchApi(branch, '/checks'), revision)
  const [tab, setTab] = useState(() => new URLSearchParams(location.search).get('tab') ?? 'changes')
  const select = (t: string) => {
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  if (res.error) return <ErrorState message={res.error} retry={res.reload} />
  if (!res.data) return <Loading what={`branch ${branch}`} />
  const b = res.data.branch
  const approved = b.approvedCommit !== null && b.approvedCommit === b.head
  return (
    <div className="cc-page">
      <div className="cc-title-row">
        <div>
          <h1>
            {b.title || b.name} <span className="cc-chip">{b.scheduledAt ? 'scheduled' : b.status}</span>
          </h1>
          <p className="muted">
            <code>{b.name}</code> · base <code>{shortSha(b.baseCommit)}</code> · head{' '}
            <code data-testid="branch-head">{shortSha(b.head)}</code>
            {b.createdBy && <> · by {b.createdBy.name}</>}
            {b.scheduledAt && <> · publishes {laTime(b.scheduledAt)}</>}
            {' · '}
            {approved ? 'approved at this head' : 'needs review'}
          </p>
          {b.description && <p>{b.description}</p>}
        </div>
        <a className="button" href={ccPath('pages', {}, b.name)}>
          Edit pages
        </a>
      </div>
      {b.name !== LIVE_BRANCH_NAME && (
        <BranchActions
          branch={b}
          checks={checks.data}
          checking={!checks.data && !checks.error}
          onChanged={() => setRevision((r) => r + 1)}
        />
      )}
      <Tabs
        label="Branch"
        selected={tab}
        onSelect={select}
        tabs={[
          { id: 'changes', label: 'Changes' },
          {
            id: 'checks',
            label: (
              <>
                Checks{' '}
                {checks.data && (
                  <span className={checks.data.ok ? 'cc-count' : 'cc-count cc-count-error'}>
                    {checks.data.errors.length}
                  </span>
                )}
              </>
            ),
          },
          { id: 'impact', label: 'Impact' },
          { id: 'review', label: 'Review' },
          { id: 'history', label: 'History' },
          { id: 'activity', label: 'Activity' },
        ]}
      >
        {tab === 'changes' && <ChangesTab branch={branch} revision={revision} />}
        {tab === 'checks' && <ChecksTab branch={branch} checks={checks} />}
        {tab === 'impact' && <ImpactTab branch={branch} revision={revision} />}
        {tab === 'review' && <ReviewTab branch={b} onChanged={() => setRevision((r) => r + 1)} />}
        {tab === 'history' && <HistoryTab branch={branch} revision={revision} />}
        {tab === 'activity' && <ActivityTable branch={branch} />}
      </Tabs>
    </div>
  )
}
