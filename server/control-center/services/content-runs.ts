/**
 * Content-factory runs (CONTROL-CENTER §5, issue 16): a row per run in `content_runs`, claimed by a
 * worker with FOR UPDATE SKIP LOCKED (safe on several instances), driven by the run machine
 * (engine/control-center/content-factory/run-machine.ts) with the text-generation adapter and a validation that
 * checks the article schema, a dry snapshot build of the branch with the article, and the claims
 * lint. Output is saved about once a second while it streams. "Create article" commits the draft.
 */
import { createActor, fromPromise } from 'xstate'
import { assertCan } from '../../../engine/control-center/content/permissions'
import { lintClaims } from '../../../engine/control-center/content-factory/claims-lint'
import {
  type ArticleDraft,
  type Brief,
  buildMessages,
  type ChatMessage,
} from '../../../engine/control-center/content-factory/prompt'
import {
  type GenerationOutput,
  runMachine,
  SERVER_STOPPED_ERROR,
  statusOf,
  type ValidationOutput,
} from '../../../engine/control-center/content-factory/run-machine'
import { describeErrors, validatorFor } from '../../../engine/definitions/validators'
import { hashString } from '../../../engine/util/hash'
import type { Author } from '../../../schemas/generated/author'
import type { Run, RunStatus } from '../../../schemas/generated/cc-answers/runs'
import type { ContentRepository } from '../../content/content-repository'
import { branchRef, LIVE_BRANCH } from '../../content/git/branch-name'
import { log } from '../../log'
import { audit, auditWithId, nextAuditId, type StaffUser } from '../../store/auth-store'
import type { Db } from '../../store/db'
import type { TextGenerator } from '../../upstream/text-generation'
import { authorOf, type BranchService, commitMessage } from './branch-service'
import { ContentError } from './content-errors'

/** How often streamed output is written to the run's row. */
const OUTPUT_FLUSH_MS = 1_000
/** How often each instance looks for queued runs (besides being told of its own). */
const CLAIM_POLL_MS = 5_000
/** How long a stopping server waits for its runs' last writes before the store closes. */
const RUNS_STOP_WAIT_MS = 5_000

/** A run as the content-factory API answers it (schemas/cc-answers/runs.schema.json). */
export type RunRow = Run

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null)
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T

function rowOf(r: Record<string, unknown>): RunRow {
  return {
    id: String(r.id),
    branch: r.branch as string,
    authorId: r.author_id as string,
    brief: json(r.brief),
    messages: json(r.messages),
    model: (r.model as string | null) ?? null,
    status: r.status as RunStatus,
    attempt: Number(r.attempt),
    output: r.output as string,
    draft: r.draft ? json(r.draft) : null,
    validation: r.validation ? json(r.validation) : null,
    error: (r.error as string | null) ?? null,
    promptTokens: (r.prompt_tokens as number | null) ?? null,
    completionTokens: (r.completion_tokens as number | null) ?? null,
    createdBy: r.created_by as string,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
    articleId: (r.article_id as string | null) ?? null,
    commit: (r.commit as string | null) ?? null,
  }
}

/** An article document from a draft: the id from the slug, today's date, the run's author. */
export function articleFromDraft(draft: ArticleDraft, authorId: string, today = new Date()) {
  const slug = draft.slug.trim().toLowerCase()
  return {
    $schema: '../../schemas/article.schema.json',
    id: slug.replace(/\//g, '-'),
    slug,
    title: draft.title.trim(),
    description: draft.description.trim(),
    author: authorId,
    date: today.toISOString().slice(0, 10),
    carrier: draft.carrier.trim(),
    body: draft.body,
  }
}

export class ContentRuns {
  readonly #active = new Map<string, ReturnType<typeof createActor<typeof runMachine>>>()
  #timer: NodeJS.Timeout | null = null
  #stopped = false

  constructor(
    readonly db: Db,
    readonly content: ContentRepository,
    readonly branches: BranchService,
    readonly generator: TextGenerator | null,
  ) {}

  get configured(): boolean {
    return this.generator !== null
  }

  start(): void {
    if (!this.generator) return
    this.#timer = setInterval(() => this.kick(), CLAIM_POLL_MS)
    this.#timer.unref()
    // Runs a previous process left running past any timeout will never finish: say so.
    void this.db
      .query(
        `UPDATE content_runs SET status = 'failed', error = $2, finished_at = now()
         WHERE status IN ('running', 'validating') AND started_at < now() - make_interval(secs => $1)`,
        [Math.ceil(this.generator.config.timeoutMs / 1000) * 2 + 60, SERVER_STOPPED_ERROR],
      )
      .catch(() => {})
    this.kick()
  }

  /**
   * Stops claiming, ends the runs this process drives as failed ("the server stopped during the
   * run") and puts back in the queue a run claimed meanwhile, then waits (at most
   * RUNS_STOP_WAIT_MS) until those rows are written, so the store can close after it.
   */
  async stop(): Promise<void> {
    this.#stopped = true
    if (this.#timer) clearInterval(this.#timer)
    for (const actor of this.#active.values()) actor?.send({ type: 'SERVER_STOP' })
    const until = Date.now() + RUNS_STOP_WAIT_MS
    while (this.#active.size && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
  }

  async #author(branch: string, id: string): Promise<Author> {
    const head = await this.branches.head(branch)
    const text = await this.content.repo.readText(`${head}:definitions/authors/${id}.json`)
    if (!text) throw new ContentError(400, `/author: no author "${id}" on branch "${branch}"`)
    return JSON.parse(text) as Author
  }

  async #existingTitles(branch: string): Promise<string[]> {
    const head = await this.branches.head(branch)
    const entries = await this.content.repo.lsTree(head, ['definitions/articles/'])
    const titles: string[] = []
    for (const e of entries) {
      try {
        const t = (
          JSON.parse((await this.content.repo.readText(e.sha)) ?? '{}') as {
            title?: string
          }
        ).title
        if (t) titles.push(t)
      } catch {}
    }
    return titles
  }

  /** Queues a run; a worker picks it up at once. */
  async create(user: StaffUser, branch: string, input: { author: string; brief: Brief }): Promise<RunRow> {
    assertCan(user, 'run.manage')
    if (!this.generator)
      throw Object.assign(new Error('text generation is not configured: set TEXTGEN_BASE_URL'), {
        status: 503,
        expose: true,
      })
    if (branch === LIVE_BRANCH) throw new ContentError(400, 'live is read-only: start runs on a branch')
    const author = await this.#author(branch, input.author)
    const messages = buildMessages(author, input.brief, await this.#existingTitles(branch))
    const r = await this.db.query(
      `INSERT INTO content_runs (branch, author_id, brief, messages, model, created_by)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6) RETURNING *`,
      [
        branch,
        author.id,
        JSON.stringify(input.brief),
        JSON.stringify(messages),
        this.generator.config.model,
        user.id,
      ],
    )
    const run = rowOf(r.rows[0])
    await audit(this.db, {
      actor: user.id,
      action: 'run.start',
      target: branch,
      details: { run: run.id, topic: input.brief.topic },
    })
    this.kick()
    return run
  }

  async list(branch: string): Promise<RunRow[]> {
    const r = await this.db.query('SELECT * FROM content_runs WHERE branch = $1 ORDER BY id DESC LIMIT 200', [
      branch,
    ])
    return r.rows.map(rowOf)
  }

  async get(id: string): Promise<RunRow> {
    if (!/^\d{1,18}$/.test(id)) throw new ContentError(400, `run id "${id}" is not valid`)
    const r = await this.db.query('SELECT * FROM content_runs WHERE id = $1', [id])
    if (!r.rows[0]) throw new ContentError(404, `unknown run ${id}`)
    return rowOf(r.rows[0])
  }

  async cancel(user: StaffUser, id: string): Promise<RunRow> {
    assertCan(user, 'run.manage')
    const run = await this.get(id)
    const actor = this.#active.get(id)
    await audit(this.db, {
      actor: user.id,
      action: 'run.cancel',
      target: run.branch,
      details: { run: id },
    })
    if (actor) actor.send({ type: 'CANCEL' })
    else {
      // Not driven here (queued, being claimed, or run by another instance): finish it in the store;
      // whoever drives it sees the run finished at its next write and stops.
      const r = await this.db.query(
        `UPDATE content_runs SET status = 'cancelled', error = 'cancelled by staff', finished_at = now()
         WHERE id = $1 AND finished_at IS NULL RETURNING id`,
        [id],
      )
      if (r.rows.length) await this.#auditFinish(run, 'cancelled', 'cancelled by staff')
    }
    return this.#waitSettled(id)
  }

  #auditFinish(run: RunRow, status: string, error: string | null): Promise<unknown> {
    return audit(this.db, {
      actor: run.createdBy,
      action: 'run.finish',
      target: run.branch,
      details: { run: run.id, status, error },
    })
  }

  async #waitSettled(id: string): Promise<RunRow> {
    // Settled once this process no longer drives it (its last write is then stored).
    for (let i = 0; i < 100 && this.#active.has(id); i++) await new Promise((r) => setTimeout(r, 20))
    return this.get(id)
  }

  /** Commits the run's draft as definitions/articles/<id>.json on its branch. */
  async toArticle(user: StaffUser, id: string): Promise<{ run: RunRow; path: string; commit: string }> {
    assertCan(user, 'run.manage')
    const run = await this.get(id)
    if (run.status !== 'succeeded' || !run.draft)
      throw new ContentError(409, `run ${id} has no usable draft (status ${run.status})`)
    if (run.commit)
      throw new ContentError(
        409,
        `run ${id} is already article "${run.articleId}" (${run.commit.slice(0, 7)})`,
      )
    const article = articleFromDraft(run.draft, run.authorId)
    const path = `definitions/articles/${article.id}.json`
    return this.content.exclusive(async () => {
      await this.content.sync()
      const head = await this.branches.head(run.branch)
      if (await this.content.repo.blobAt(head, path))
        throw new ContentError(409, `${path} already exists on branch "${run.branch}"`)
      const auditId = await nextAuditId(this.db)
      const commit = await this.content.repo.commitFiles(
        head,
        [{ path, content: `${JSON.stringify(article, null, 2)}\n` }],
        commitMessage(`Article from run ${id}`, user, auditId, `Run: ${id}`),
        authorOf(user),
      )
      await this.content.moveRef(branchRef(run.branch), commit, head)
      await this.db.query('UPDATE content_runs SET article_id = $2, commit = $3 WHERE id = $1', [
        id,
        article.id,
        commit,
      ])
      await auditWithId(this.db, auditId, {
        actor: user.id,
        action: 'run.to-article',
        target: run.branch,
        details: { run: id, article: article.id, commit },
      })
      return { run: await this.get(id), path, commit }
    })
  }

  /** Claims queued runs up to the generator's concurrency. */
  kick(): void {
    if (!this.generator || this.#stopped) return
    while (this.#active.size < this.generator.config.maxConcurrency) {
      const slot = `claiming-${Math.random()}`
      // Reserve the slot while claiming, so one kick cannot claim more than the cap.
      this.#active.set(slot, null as never)
      void this.#claim()
        .then(async (row) => {
          // Claimed while the server stops: back to the queue, for this server's next start or another's.
          if (row && this.#stopped)
            await this.db
              .query(
                `UPDATE content_runs SET status = 'queued', started_at = NULL WHERE id = $1 AND finished_at IS NULL`,
                [row.id],
              )
              .catch((e) =>
                log('warn', 'content run requeue failed', { run: row.id, error: (e as Error).message }),
              )
          this.#active.delete(slot)
          if (row && !this.#stopped) {
            this.#execute(row)
            this.kick()
          }
        })
        .catch((e) => {
          this.#active.delete(slot)
          log('warn', 'content run claim failed', {
            error: (e as Error).message,
          })
        })
      return
    }
  }

  async #claim(): Promise<RunRow | null> {
    const r = await this.db.query(
      `UPDATE content_runs SET status = 'running', started_at = now()
       WHERE id = (SELECT id FROM content_runs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
    )
    return r.rows[0] ? rowOf(r.rows[0]) : null
  }

  async #validate(run: RunRow, draft: ArticleDraft): Promise<ValidationOutput> {
    const article = articleFromDraft(draft, run.authorId)
    const errors: string[] = []
    const check = validatorFor('article.schema.json')
    if (!check(article))
      for (const p of describeErrors(check.errors ?? [])) errors.push(`${p.pointer || '/'}: ${p.message}`)
    const path = `definitions/articles/${article.id}.json`
    const text = `${JSON.stringify(article, null, 2)}\n`
    const head = await this.branches.head(run.branch)
    if (await this.content.repo.blobAt(head, path))
      errors.push(`/slug: an article "${article.id}" already exists on this branch`)
    else if (!errors.length) {
      const built = await this.branches.branches.get(head, new Map([[path, text]]), hashString(text))
      if (!built.ok)
        for (const e of built.errors.filter((x) => x.file === path))
          errors.push(`${e.pointer || '/'}: ${e.message}`)
    }
    const warnings = lintClaims(draft.body).map((w) => `line ${w.line}: "${w.phrase}" — ${w.message}`)
    return { errors, warnings }
  }

  #execute(run: RunRow): void {
    const generator = this.generator!
    let output = ''
    let flushed = 0
    // The run's row is written in order: one write after the other.
    let writes: Promise<unknown> = Promise.resolve()
    const write = (fn: () => Promise<unknown>) => {
      writes = writes.then(fn).catch((e) =>
        log('warn', 'content run update failed', {
          run: run.id,
          error: (e as Error).message,
        }),
      )
    }
    // A flush skipped inside the interval is made at its end, so output that stops arriving (a
    // provider pausing mid-answer) is still saved within about a second.
    let trailing: NodeJS.Timeout | null = null
    const flush = (force = false) => {
      const wait = OUTPUT_FLUSH_MS - (Date.now() - flushed)
      if (!force && wait > 0) {
        trailing ??= setTimeout(() => {
          trailing = null
          flush()
        }, wait)
        return
      }
      if (trailing) clearTimeout(trailing)
      trailing = null
      flushed = Date.now()
      const text = output
      write(() =>
        this.db.query('UPDATE content_runs SET output = $2 WHERE id = $1 AND finished_at IS NULL', [
          run.id,
          text,
        ]),
      )
    }
    const machine = runMachine.provide({
      actors: {
        generate: fromPromise<GenerationOutput, { messages: ChatMessage[] }>(({ input, signal }) => {
          output = ''
          return generator.complete(input.messages, {
            signal,
            onDelta: (piece) => {
              output += piece
              flush()
            },
          })
        }),
        validate: fromPromise<ValidationOutput, { draft: ArticleDraft }>(({ input }) =>
          this.#validate(run, input.draft),
        ),
      },
    })
    const actor = createActor(machine, { input: { messages: run.messages } })
    this.#active.set(run.id, actor)
    let last = ''
    actor.subscribe((s) => {
      const status = statusOf(String(s.value))
      const key = `${status}|${s.context.attempt}`
      if (key === last && s.status !== 'done') return
      last = key
      const done = s.status === 'done'
      if (done) flush(true)
      write(async () => {
        // Only a run not yet finished is written: a run cancelled meanwhile (by another instance, or
        // while it was being claimed) stays cancelled, and its finish is recorded once.
        try {
          const r = await this.db.query(
            `UPDATE content_runs SET status = $2, attempt = $3, messages = $4::jsonb, output = $5, draft = $6::jsonb,
             validation = $7::jsonb, error = $8, model = COALESCE($9, model), prompt_tokens = $10,
             completion_tokens = $11, finished_at = CASE WHEN $12 THEN now() ELSE finished_at END
           WHERE id = $1 AND finished_at IS NULL RETURNING id`,
            [
              run.id,
              status,
              s.context.attempt,
              JSON.stringify(s.context.messages),
              s.context.output || output,
              s.context.draft ? JSON.stringify(s.context.draft) : null,
              s.context.validation ? JSON.stringify(s.context.validation) : null,
              s.context.error,
              s.context.model,
              s.context.promptTokens || null,
              s.context.completionTokens || null,
              done,
            ],
          )
          if (!r.rows.length) {
            if (!done) actor.send({ type: 'CANCEL' })
          } else if (done) await this.#auditFinish(run, status, s.context.error)
        } finally {
          // The slot is freed even when the last write failed, so the queue never stalls.
          if (done) {
            this.#active.delete(run.id)
            this.kick()
          }
        }
      })
    })
    actor.start()
    actor.send({ type: 'START' })
  }
}
