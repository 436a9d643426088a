/**
 * The content factory (CONTROL-CENTER §1.4, §5; issue 16): `/content-factory` (configuration, New run,
 * latest runs), `/content-factory/authors` (personas; edits in the Source editor),
 * `/content-factory/runs` (every run of the branch) and `/content-factory/runs/{run}` (one run, live).
 */
import '../content-factory.css'
import { useState } from 'react'
import { RUN_LIST_POLL_MS } from '../../../engine/control-center/machines/run-poll-machine'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { Run, RunList, RunStatus } from '../../../schemas/generated/cc-answers/runs'
import { isFinal } from '../answer-helpers'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { FileDetail } from '../FileDetail'
import { AuthorCard } from '../factory/Authors'
import { RunForm } from '../factory/RunForm'
import { RunView } from '../factory/RunView'
import { RunTable } from '../factory/run-bits'
import { useAuthors } from '../factory/use-authors'
import { Empty, WithResource } from '../States'
import { usePoll } from '../use-poll'
import { type Resource, useResource } from '../use-resource'

/** The branch's runs, read again every 2 s while any of them is in progress (run-poll-machine). */
function useRuns(branch: string): Resource<RunList> {
  const { revision } = useCc()
  const api = useApi()
  const runs = usePoll<RunList>(
    async () => {
      const data = await api<RunList>('GET', branchApi(branch, '/runs'))
      return { data, more: data.runs.some((r) => !isFinal(r.status)) }
    },
    { intervalMs: RUN_LIST_POLL_MS },
    `${branch}\0${revision}`,
  )
  return {
    data: runs.data,
    error: runs.data ? null : runs.error,
    loading: runs.loading,
    reload: runs.refresh,
  }
}

export default function ContentFactoryScreen() {
  const { route, branch } = useCc()
  const b = branch as string
  switch (route.screen) {
    case 'content-factory-authors':
      return <AuthorsScreen branch={b} />
    case 'content-factory-runs':
      return <RunsScreen branch={b} />
    case 'content-factory-run':
      return <RunScreen id={route.params.run} />
    default:
      return <HomeScreen branch={b} />
  }
}

function SubNav({ branch, current }: { branch: string; current: string }) {
  const links = [
    ['content-factory', 'Overview'],
    ['content-factory-runs', 'Runs'],
    ['content-factory-authors', 'Authors'],
  ] as const
  return (
    <nav className="cf-subnav" aria-label="Content factory">
      {links.map(([screen, label]) => (
        <a
          key={screen}
          href={ccPath(screen, {}, branch)}
          aria-current={screen === current ? 'page' : undefined}
        >
          {label}
        </a>
      ))}
    </nav>
  )
}

/** Whether text generation is set up, and with which model. */
function Configuration({ list }: { list: RunList }) {
  return list.configured ? (
    <p className="cf-config cf-config-ok" data-testid="textgen-config">
      <span aria-hidden="true">●</span> Text generation is configured: model{' '}
      <code>{list.model ?? 'default'}</code>.
    </p>
  ) : (
    <div className="cc-banner" role="note" data-testid="textgen-config">
      <p>
        <strong>Text generation is not configured.</strong> Set <code>TEXTGEN_BASE_URL</code> (an
        OpenAI-compatible <code>…/v1</code> endpoint), <code>TEXTGEN_API_KEY</code> and{' '}
        <code>TEXTGEN_MODEL</code> on the server, and restart it. Optional: <code>TEXTGEN_TIMEOUT_MS</code>,{' '}
        <code>TEXTGEN_MAX_CONCURRENCY</code>.
      </p>
    </div>
  )
}

function HomeScreen({ branch }: { branch: string }) {
  const { revision } = useCc()
  const runs = useRuns(branch)
  const authors = useAuthors(branch, revision)
  return (
    <div className="cc-page cf-page">
      <h1>Content factory</h1>
      <SubNav branch={branch} current="content-factory" />
      <WithResource resource={runs} what="runs">
        {(list) => (
          <>
            <Configuration list={list} />
            <div className="cf-home">
              <WithResource resource={authors} what="authors">
                {(entries) => {
                  const usable = entries.flatMap((e) => (e.author ? [e.author] : []))
                  return usable.length === 0 ? (
                    <Empty>No authors are defined on this branch: add one under definitions/authors/.</Empty>
                  ) : (
                    <RunForm branch={branch} authors={usable} configured={list.configured} />
                  )
                }}
              </WithResource>
              <section className="cc-card cf-latest" aria-labelledby="cf-latest-h">
                <div className="cc-row-between">
                  <h2 className="cc-h3" id="cf-latest-h">
                    Latest runs
                  </h2>
                  <a href={ccPath('content-factory-runs', {}, branch)}>All runs ({list.runs.length})</a>
                </div>
                {list.runs.length === 0 ? (
                  <Empty>No runs on this branch yet.</Empty>
                ) : (
                  <RunTable runs={list.runs.slice(0, 8)} label="Latest runs" compact />
                )}
              </section>
            </div>
          </>
        )}
      </WithResource>
    </div>
  )
}

type Filter = '' | 'active' | Extract<RunStatus, 'succeeded' | 'failed' | 'cancelled'>
const FILTERS: Filter[] = ['', 'active', 'succeeded', 'failed', 'cancelled']
const FILTER_LABEL: Record<Filter, string> = {
  '': 'All',
  active: 'In progress',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

function RunsScreen({ branch }: { branch: string }) {
  const runs = useRuns(branch)
  const [filter, setFilter] = useState<Filter>('')
  return (
    <div className="cc-page cf-page">
      <h1>Content-factory runs</h1>
      <SubNav branch={branch} current="content-factory-runs" />
      <WithResource resource={runs} what="runs">
        {(list) => {
          const rows = list.runs.filter((r) =>
            filter === ''
              ? true
              : filter === 'active'
                ? ['queued', 'running', 'validating'].includes(r.status)
                : r.status === filter,
          )
          return (
            <>
              {!list.configured && <Configuration list={list} />}
              <fieldset className="cc-row cf-filters">
                <legend className="cc-visually-hidden">Filter by status</legend>
                {FILTERS.map((f) => (
                  <button
                    key={f}
                    type="button"
                    className="cc-chip-button"
                    aria-pressed={filter === f}
                    onClick={() => setFilter(f)}
                  >
                    {FILTER_LABEL[f]}
                  </button>
                ))}
                <button type="button" className="button cc-small" onClick={runs.reload}>
                  Refresh
                </button>
              </fieldset>
              {list.runs.length === 0 ? (
                <Empty>
                  No content-factory runs target this branch.{' '}
                  <a href={ccPath('content-factory', {}, branch)}>Start one</a>.
                </Empty>
              ) : rows.length === 0 ? (
                <Empty>No run matches this filter.</Empty>
              ) : (
                <RunTable runs={rows} label={`${rows.length} runs`} />
              )}
            </>
          )
        }}
      </WithResource>
    </div>
  )
}

function RunScreen({ id }: { id: string }) {
  const run = useResource<{ run: Run }>(`/api/cc/runs/${encodeURIComponent(id)}`)
  return (
    <WithResource resource={run} what={`run ${id}`}>
      {(d) => <RunView key={d.run.id} initial={d.run} />}
    </WithResource>
  )
}

function AuthorsScreen({ branch }: { branch: string }) {
  const { revision } = useCc()
  const authors = useAuthors(branch, revision)
  const file = new URLSearchParams(location.search).get('file')
  return (
    <div className="cc-page cf-page">
      <h1>Authors</h1>
      <SubNav branch={branch} current="content-factory-authors" />
      <p className="muted cf-lede">
        Each author writes in their own persona. Authors are definitions: edits are commits on this branch.
      </p>
      {file && <FileDetail branch={branch} path={file} />}
      <WithResource resource={authors} what="authors">
        {(entries) =>
          entries.length === 0 ? (
            <Empty>No authors are defined on this branch.</Empty>
          ) : (
            <div className="cf-authors">
              {entries.map((e) => (
                <AuthorCard key={e.path} entry={e} branch={branch} selected={e.path === file} />
              ))}
            </div>
          )
        }
      </WithResource>
    </div>
  )
}
