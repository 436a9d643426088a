import { RUN_POLL_MS } from '../../../engine/control-center/machines/run-poll-machine'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { ArticleDraft, Run, RunStatus } from '../../../schemas/generated/cc-answers/runs'
import { isFinal, MAX_ATTEMPTS } from '../answer-helpers'
import { useApi } from '../api'
import { useCc } from '../cc-context'
import { FormError, laTime } from '../States'
import { useMutation } from '../use-mutation'
import { usePoll } from '../use-poll'
import { articleUrl, formatDuration, runDuration, StatusChip, tokens, useWho } from './run-bits'

const STEPS: { key: RunStatus | 'final'; label: string }[] = [
  { key: 'queued', label: 'Queued' },
  { key: 'running', label: 'Running' },
  { key: 'validating', label: 'Validating' },
  { key: 'final', label: 'Finished' },
]
const ORDER: Record<RunStatus, number> = {
  queued: 0,
  running: 1,
  validating: 2,
  succeeded: 3,
  failed: 3,
  cancelled: 3,
}

/** The run machine's steps, the current one marked (and the final one named by the outcome). */
function Steps({ run }: { run: Run }) {
  const at = ORDER[run.status]
  const final = isFinal(run.status)
  return (
    <ol className="cf-steps" aria-label="Run steps">
      {STEPS.map((s, i) => {
        const state = i < at || (final && i === at) ? 'done' : i === at ? 'current' : 'todo'
        const label = s.key === 'final' && final ? run.status : s.label
        return (
          <li
            key={s.key}
            className={`cf-step cf-step-${state}${s.key === 'final' && final ? ` cf-step-${run.status}` : ''}`}
            aria-current={i === at ? 'step' : undefined}
          >
            <span className="cf-step-dot" aria-hidden="true" />
            <span>{label.charAt(0).toUpperCase() + label.slice(1)}</span>
          </li>
        )
      })}
    </ol>
  )
}

/** "line 3: …" warnings by body line. */
function warningsByLine(warnings: string[]): { byLine: Map<number, string[]>; other: string[] } {
  const byLine = new Map<number, string[]>()
  const other: string[] = []
  for (const w of warnings) {
    const m = /^line (\d+): (.*)$/.exec(w)
    if (m) byLine.set(Number(m[1]), [...(byLine.get(Number(m[1])) ?? []), m[2]])
    else other.push(w)
  }
  return { byLine, other }
}

function Draft({ draft, warnings }: { draft: ArticleDraft; warnings: string[] }) {
  const { byLine, other } = warningsByLine(warnings)
  return (
    <section className="cc-card" aria-labelledby="cf-draft-h" data-testid="run-draft">
      <h2 className="cc-h3" id="cf-draft-h">
        Draft
      </h2>
      <dl className="cf-meta">
        <div>
          <dt>Title</dt>
          <dd>{draft.title}</dd>
        </div>
        <div>
          <dt>Slug</dt>
          <dd>
            <code>{draft.slug}</code>
          </dd>
        </div>
        <div>
          <dt>Carrier</dt>
          <dd>{draft.carrier}</dd>
        </div>
        <div className="cf-persona-wide">
          <dt>Description</dt>
          <dd>{draft.description}</dd>
        </div>
      </dl>
      <ol className="cf-body" aria-label="Body, line by line">
        {draft.body.map((line, i) => {
          const hits = byLine.get(i + 1)
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
            <li key={i} className={hits ? 'cf-line cf-line-warn' : 'cf-line'}>
              <span className="cf-line-text">{line || '\u00a0'}</span>
              {hits?.map((h) => (
                <span key={h} className="cf-line-note">
                  <span className="cc-visually-hidden">Claims lint: </span>⚠ {h}
                </span>
              ))}
            </li>
          )
        })}
      </ol>
      {other.length > 0 && (
        <ul className="cf-warnings">
          {other.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Checks({ run }: { run: Run }) {
  const v = run.validation
  if (!v && run.status !== 'succeeded') return null
  const errors = v?.errors ?? []
  const warnings = v?.warnings ?? []
  return (
    <section className="cc-card" aria-labelledby="cf-checks-h" data-testid="run-checks">
      <h2 className="cc-h3" id="cf-checks-h">
        Checks
      </h2>
      {errors.length === 0 ? (
        <p className="cf-pass">
          ✓ Article schema, dry snapshot build: passing.{' '}
          {warnings.length === 0
            ? 'Claims lint: no warnings.'
            : `Claims lint: ${warnings.length} warning${warnings.length > 1 ? 's' : ''} (marked on the draft).`}
        </p>
      ) : (
        <>
          <p className="cc-form-error">
            {errors.length} validation error{errors.length > 1 ? 's' : ''}
            {run.attempt > 1 ? ' (after the repair attempt)' : ''}:
          </p>
          <ul className="cf-errors" data-testid="validation-errors">
            {errors.map((e) => (
              <li key={e}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function Prompt({ run }: { run: Run }) {
  const chars = run.messages.reduce((n, m) => n + m.content.length, 0)
  return (
    <details className="cc-card cf-prompt" data-testid="run-prompt">
      <summary>
        <h2 className="cc-h3 cf-inline-h">The exact prompt</h2>{' '}
        <span className="muted">
          ({run.messages.length} messages, {chars.toLocaleString('en-US')} characters)
        </span>
      </summary>
      {run.messages.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: messages are positional
        <section key={i} className="cf-message" aria-label={`Message ${i + 1}: ${m.role}`}>
          <h3 className="cf-role">{m.role}</h3>
          <pre className="cf-pre">{m.content}</pre>
        </section>
      ))}
    </details>
  )
}

function Actions({ run, onRun }: { run: Run; onRun(r: Run): void }) {
  const api = useApi()
  const { may } = useCc()
  const cancel = useMutation(
    async () => (await api<{ run: Run }>('POST', `/api/cc/runs/${run.id}/cancel`)).run,
    {
      onDone: onRun,
    },
  )
  const toArticle = useMutation(
    async () => (await api<{ run: Run }>('POST', `/api/cc/runs/${run.id}/article`)).run,
    {
      onDone: (r) => location.assign(articleUrl(r.branch, r.articleId!)),
    },
  )
  const busy = cancel.busy || toArticle.busy
  if (!may('run.manage'))
    return run.articleId ? (
      <div className="cc-actions">
        <a className="button" href={articleUrl(run.branch, run.articleId)}>
          Open article {run.articleId}
        </a>
      </div>
    ) : null
  return (
    <section className="cc-actions" aria-label="Run actions">
      {!isFinal(run.status) && (
        <button type="button" className="button" disabled={busy} onClick={() => cancel.run()}>
          {cancel.busy ? 'Cancelling…' : 'Cancel run'}
        </button>
      )}
      {run.status === 'succeeded' && !run.articleId && (
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => toArticle.run()}
        >
          {toArticle.busy ? 'Creating…' : 'Create article on this branch'}
        </button>
      )}
      {run.articleId && (
        <a className="button" href={articleUrl(run.branch, run.articleId)}>
          Open article {run.articleId}
        </a>
      )}
      <a
        className="button"
        href={ccPath('content-factory', {}, run.branch, {
          author: run.authorId,
          topic: run.brief.topic,
          ...(run.brief.carrier ? { carrier: run.brief.carrier } : {}),
        })}
      >
        Re-run with edits
      </a>
      <FormError message={cancel.error ?? toArticle.error} />
    </section>
  )
}

/** `/content-factory/runs/{run}`: one run, read again every second until it is finished (run-poll-machine). */
export function RunView({ initial }: { initial: Run }) {
  const api = useApi()
  const who = useWho()
  const poll = usePoll<Run>(
    async () => {
      const r = await api<{ run: Run }>('GET', `/api/cc/runs/${initial.id}`)
      return { data: r.run, more: !isFinal(r.run.status) }
    },
    { initial: { data: initial, more: !isFinal(initial.status) }, intervalMs: RUN_POLL_MS },
  )
  const run = poll.data ?? initial
  const pollError = poll.error
  // The duration ticks with each read: the time of the last render is the time of the last answer.
  const now = Date.now()
  const final = isFinal(run.status)
  const title = `Run #${run.id}: ${run.brief.topic}`
  return (
    <div className="cc-page cf-run" data-status={run.status}>
      <p className="cf-crumbs">
        <a href={ccPath('content-factory-runs', {}, run.branch)}>All runs</a>
      </p>
      <h1>{title}</h1>
      <div className="cf-status-row">
        <StatusChip status={run.status} />
        <span data-testid="run-attempt">
          {run.attempt > 0 ? `attempt ${run.attempt} of ${MAX_ATTEMPTS}` : 'waiting for a worker'}
        </span>
        {run.attempt > 1 && <span className="cc-chip cc-chip-warn">repair retry</span>}
      </div>
      <Steps run={run} />
      {run.error && (
        <p className="cc-banner cc-banner-error" role="alert" data-testid="run-error">
          {run.status === 'cancelled' ? 'Cancelled' : 'Failed'}: {run.error}
        </p>
      )}
      {pollError && (
        <p className="cc-banner cc-banner-error" role="alert">
          Could not refresh this run: {pollError} (trying again).
        </p>
      )}
      <Actions run={run} onRun={(r) => poll.set(r, !isFinal(r.status))} />
      <dl className="cc-card cf-meta">
        <div>
          <dt>Author</dt>
          <dd>{run.authorId}</dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd>{run.model ?? '—'}</dd>
        </div>
        <div>
          <dt>Tokens (prompt + output)</dt>
          <dd data-testid="run-tokens">{tokens(run)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(runDuration(run, now))}</dd>
        </div>
        <div>
          <dt>Started by</dt>
          <dd>{who(run.createdBy)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{laTime(run.createdAt)}</dd>
        </div>
        <div>
          <dt>Branch</dt>
          <dd>
            <code>{run.branch}</code>
          </dd>
        </div>
        {run.commit && (
          <div>
            <dt>Commit</dt>
            <dd>
              <code>{run.commit.slice(0, 7)}</code>
            </dd>
          </div>
        )}
      </dl>
      <Checks run={run} />
      {run.draft && <Draft draft={run.draft} warnings={run.validation?.warnings ?? []} />}
      <section className="cc-card" aria-labelledby="cf-output-h">
        <h2 className="cc-h3" id="cf-output-h">
          Model output{' '}
          {!final && run.status !== 'queued' && <span className="muted cf-streaming">streaming…</span>}
        </h2>
        {run.output ? (
          <pre className="cf-pre cf-output" data-testid="run-output" aria-busy={!final}>
            {run.output}
          </pre>
        ) : (
          <p className="muted" data-testid="run-output-empty">
            {run.status === 'queued' ? 'Waiting for a worker to pick this run up.' : 'No output yet.'}
          </p>
        )}
      </section>
      <Prompt run={run} />
    </div>
  )
}
