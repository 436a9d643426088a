import { useState } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { ExperimentListRow, ExperimentResults } from '../../../schemas/generated/cc-answers/experiments'
import { useCc } from '../cc-context'
import { Decisions } from '../experiment/ExperimentDecisions'
import { ExperimentHeader } from '../experiment/ExperimentHeader'
import { ExperimentPreviews } from '../experiment/ExperimentPreviews'
import { Results } from '../experiment/ExperimentResults'
import { FileDetail } from '../FileDetail'
import { Empty, ErrorState, Loading } from '../States'
import { Tabs } from '../Tabs'
import { useResource } from '../use-resource'
import '../experiments.css'

/** `/experiments/{experiment}?branch=B`: results from live, decisions as commits on B, the definition. */
export default function ExperimentScreen() {
  const { branch: b, route, revision } = useCc()
  const branch = b as string
  const id = route.params.experiment
  const path = `definitions/experiments/${id}.json`
  const q = new URLSearchParams(location.search)
  const [tab, setTab] = useState(() => q.get('tab') ?? 'results')
  const [phase, setPhase] = useState<number | null>(q.get('phase') ? Number(q.get('phase')) : null)
  const [refreshes, setRefreshes] = useState(0)
  const select = (t: string) => {
    setTab(t)
    const url = new URL(location.href)
    url.searchParams.set('tab', t)
    history.replaceState(history.state, '', url)
  }
  const list = useResource<{ head: string; experiments: ExperimentListRow[] }>(
    `/api/cc/experiments?branch=${encodeURIComponent(branch)}`,
    revision,
  )
  const results = useResource<ExperimentResults>(
    `/api/cc/experiments/${encodeURIComponent(id)}/results?${new URLSearchParams({
      ...(phase ? { phase: String(phase) } : {}),
      ...(refreshes ? { refresh: String(refreshes) } : {}),
    })}`,
    revision,
  )
  const row = list.data?.experiments.find((e) => e.id === id)
  const notLive = results.error !== null && /not published|unknown experiment/.test(results.error)
  return (
    <div className="cc-page cc-exp">
      <div className="cc-title-row">
        <h1>
          Experiment <code>{id}</code>
        </h1>
        <a className="button cc-small" href={ccPath('experiments', {}, branch)}>
          All experiments
        </a>
      </div>
      {list.error ? (
        <ErrorState message={list.error} retry={list.reload} />
      ) : !list.data ? (
        <Loading what="experiment" />
      ) : !row ? (
        <Empty>
          There is no experiment “{id}” on branch {branch}.{' '}
          <a href={ccPath('experiments', {}, branch)}>See all experiments</a>.
        </Empty>
      ) : (
        <>
          <ExperimentHeader row={row} results={results.data} phase={phase} onPhase={setPhase} />
          <Decisions row={row} branch={branch} head={list.data.head} results={results.data} />
          <Tabs
            label="Experiment"
            selected={tab}
            onSelect={select}
            tabs={[
              { id: 'results', label: 'Results' },
              { id: 'definition', label: 'Definition' },
              { id: 'preview', label: 'Preview' },
            ]}
          >
            {tab === 'results' ? (
              notLive ? (
                <Empty>
                  Not published yet: results appear once the experiment is live (Start it on a branch, then
                  publish).
                </Empty>
              ) : results.error ? (
                <ErrorState message={results.error} retry={results.reload} />
              ) : !results.data ? (
                <Loading what="results" />
              ) : (
                <Results
                  r={results.data}
                  refreshing={results.loading}
                  onRefresh={() => setRefreshes((n) => n + 1)}
                />
              )
            ) : tab === 'definition' ? (
              <FileDetail branch={branch} path={path} />
            ) : (
              <ExperimentPreviews branch={branch} row={row} results={results.data} />
            )}
          </Tabs>
        </>
      )}
    </div>
  )
}
