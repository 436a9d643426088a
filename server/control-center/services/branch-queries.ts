/**
 * What the control center reads about branches (CONTROL-CENTER §1.4, §2.4): the branch list with
 * changed files, problems and overlaps; the files of a branch with their state; one file with its
 * draft and errors; the structured diff; the history. Writes live in BranchService and Publisher.
 */
import { type FieldChange, jsonDiff, parseForDiff } from '../../../engine/control-center/content/json-diff'
import { DEFINITION_KINDS, type KindName } from '../../../engine/definitions/kinds'
import type { DefinitionError } from '../../../engine/snapshot/types'
import type {
  Branch,
  ChangedFile as GeneratedChangedFile,
  FileRow as GeneratedFileRow,
  StaffUserView,
} from '../../../schemas/generated/cc-answers/common'
import type { ContentRepository } from '../../content/content-repository'
import { LIVE_BRANCH, STAFF_BRANCH_PREFIX } from '../../content/git/branch-name'
import type { StaffUser } from '../../store/auth-store'
import type { Db } from '../../store/db'
import type { BranchService } from './branch-service'
import { ContentError } from './content-errors'

/** A definition kind; `asset` is a public file under ui/public/images (an uploaded image's WebP). */
export type FileKind = KindName | 'asset' | 'other'
export type BranchStatus = 'open' | 'in_review' | 'approved' | 'published' | 'archived'

/** The answers' shapes (schemas/cc-answers/common.schema.json): what this module returns is what the API sends. */
export type ChangedFile = GeneratedChangedFile
export type PersonRef = StaffUserView
export type BranchInfo = Branch
export type FileRow = GeneratedFileRow

/** A definition file's kind and document id from its path. */
export function kindOfPath(path: string): { kind: FileKind; id: string } {
  const name = path.split('/').at(-1) ?? path
  const id = name.replace(/\.json$/, '')
  if (path.startsWith('ui/public/images/')) return { kind: 'asset', id: name }
  for (const [kind, k] of Object.entries(DEFINITION_KINDS) as [
    KindName,
    (typeof DEFINITION_KINDS)[KindName],
  ][]) {
    if ('file' in k && k.file ? path === `definitions/${k.file}` : path === `definitions/${k.dir}/${name}`)
      return { kind, id }
  }
  return { kind: 'other', id }
}

interface BranchRow {
  name: string
  title: string
  description: string
  status: BranchStatus
  created_by: string | null
  created_at: Date | string
  base_commit: string
  approved_commit: string | null
  approved_by: string | null
  scheduled_at: Date | string | null
}

const isOpenStatus = (s: BranchStatus) => s !== 'archived' && s !== 'published'
const isOpen = (b: BranchInfo) => isOpenStatus(b.status)

/** The files of `b` that other open branches change too, with those branches. */
function overlapsOf(
  b: BranchInfo,
  others: readonly { name: string; files: ChangedFile[] }[],
): BranchInfo['overlaps'] {
  return b.files
    .map((f) => ({
      path: f.path,
      branches: others
        .filter((o) => o.name !== b.name && o.files.some((x) => x.path === f.path))
        .map((o) => o.name),
    }))
    .filter((o) => o.branches.length)
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

export class BranchQueries {
  /** Changed files of a branch head since its merge-base with live, cached by (head, live). */
  readonly #changes = new Map<string, Promise<ChangedFile[]>>()
  readonly #problemCounts = new Map<string, Promise<number>>()

  constructor(
    readonly content: ContentRepository,
    readonly db: Db,
    readonly branches: BranchService,
  ) {}

  async liveCommit(): Promise<string> {
    const live = await this.content.live()
    if (!live) throw new ContentError(409, 'nothing is published yet')
    return live
  }

  async people(ids: readonly (string | null)[]): Promise<Map<string, PersonRef>> {
    const wanted = [...new Set(ids.filter((x): x is string => !!x))]
    if (!wanted.length) return new Map()
    const r = await this.db.query<PersonRef>(
      'SELECT id, name, email, role FROM staff_users WHERE id = ANY($1::text[])',
      [wanted],
    )
    return new Map(r.rows.map((p) => [p.id, p]))
  }

  /** What a branch changes against live, by the merge-base (three-dot) rule. */
  changedFiles(head: string, live: string): Promise<ChangedFile[]> {
    const key = `${head}..${live}`
    let hit = this.#changes.get(key)
    if (!hit) {
      hit = this.#computeChanges(head, live)
      hit.catch(() => this.#changes.delete(key))
      this.#changes.set(key, hit)
      while (this.#changes.size > 256) this.#changes.delete(this.#changes.keys().next().value!)
    }
    return hit
  }

  async #computeChanges(head: string, live: string): Promise<ChangedFile[]> {
    const repo = this.content.repo
    const base = (await repo.mergeBase(live, head)) ?? live
    if (base === head) return []
    const paths = await repo.changedPaths(base, head)
    return Promise.all(
      paths.map(async (path) => {
        const [before, after] = await Promise.all([repo.blobAt(base, path), repo.blobAt(head, path)])
        const status: ChangedFile['status'] = !before ? 'added' : !after ? 'deleted' : 'modified'
        return { path, ...kindOfPath(path), status }
      }),
    )
  }

  /** Every open (or, with `archived`, every) staff branch with what it changes. */
  async list(opts: { archived?: boolean } = {}): Promise<BranchInfo[]> {
    await this.content.sync()
    const live = await this.liveCommit()
    const refs = await this.content.repo.listRefs(STAFF_BRANCH_PREFIX)
    const rows = await this.db.query<BranchRow>('SELECT * FROM cc_branches')
    const byName = new Map(rows.rows.map((r) => [r.name, r]))
    // Every branch at once: their git reads share the one cat-file process instead of queueing.
    const infos = await Promise.all(
      refs
        .map(({ ref, commit }) => ({ name: ref.slice(STAFF_BRANCH_PREFIX.length), commit }))
        .filter(({ name }) => opts.archived || byName.get(name)?.status !== 'archived')
        .map(({ name, commit }) => this.#info(name, commit, live, byName.get(name))),
    )
    await this.#namePeople(infos)
    // Files changed on two open branches are flagged on both (§2.5 B).
    const open = infos.filter(isOpen)
    for (const b of open) b.overlaps = overlapsOf(b, open)
    return infos.sort((a, b) => (b.lastCommit?.date ?? '').localeCompare(a.lastCommit?.date ?? ''))
  }

  async #namePeople(infos: BranchInfo[]): Promise<void> {
    const people = await this.people(
      infos.flatMap((b) => [b.createdBy?.id ?? null, b.approvedBy?.id ?? null]),
    )
    for (const b of infos) {
      if (b.createdBy) b.createdBy = people.get(b.createdBy.id) ?? b.createdBy
      if (b.approvedBy) b.approvedBy = people.get(b.approvedBy.id) ?? b.approvedBy
    }
  }

  /**
   * One branch: its own row, changes and problems; overlaps need only the other open branches'
   * changed files (cached by head), never their snapshots (a branch screen used to validate every
   * branch, one snapshot build each: 15–20 s on a busy machine, defect 9).
   */
  async get(name: string, user?: StaffUser): Promise<BranchInfo> {
    if (name === LIVE_BRANCH) {
      const live = await this.liveCommit()
      return {
        ...(await this.#info(LIVE_BRANCH, live, live, undefined)),
        title: 'Live',
        status: 'published',
      }
    }
    await this.content.sync()
    const live = await this.liveCommit()
    const refs = await this.content.repo.listRefs(STAFF_BRANCH_PREFIX)
    const mine = refs.find((r) => r.ref === `${STAFF_BRANCH_PREFIX}${name}`)
    if (!mine) throw new ContentError(404, `unknown branch "${name}"`)
    const rows = await this.db.query<BranchRow>('SELECT * FROM cc_branches')
    const byName = new Map(rows.rows.map((r) => [r.name, r]))
    const info = await this.#info(name, mine.commit, live, byName.get(name), user)
    await this.#namePeople([info])
    if (isOpen(info)) {
      const others = await Promise.all(
        refs
          .filter((r) => r !== mine)
          .map((r) => ({ name: r.ref.slice(STAFF_BRANCH_PREFIX.length), commit: r.commit }))
          .filter((r) => isOpenStatus(byName.get(r.name)?.status ?? 'open'))
          .map(async (r) => ({ name: r.name, files: await this.changedFiles(r.commit, live) })),
      )
      info.overlaps = overlapsOf(info, others)
    }
    return info
  }

  async #info(
    name: string,
    head: string,
    live: string,
    row: BranchRow | undefined,
    user?: StaffUser,
  ): Promise<BranchInfo> {
    const [[last], files, problems] = await Promise.all([
      this.content.repo.log(head, 1),
      name === LIVE_BRANCH ? [] : this.changedFiles(head, live),
      user && name !== LIVE_BRANCH ? this.problems(name, user) : this.#problemCount(head),
    ])
    return {
      name,
      title: row?.title ?? name,
      description: row?.description ?? '',
      status: row?.status ?? 'open',
      createdBy: row?.created_by ? { id: row.created_by, name: row.created_by, email: '', role: '' } : null,
      createdAt: iso(row?.created_at ?? null),
      head,
      baseCommit: row?.base_commit ?? null,
      lastCommit: last
        ? { sha: last.commit, subject: last.subject, author: last.author, date: last.at }
        : null,
      files,
      problems,
      overlaps: [],
      scheduledAt: iso(row?.scheduled_at ?? null),
      approvedCommit: row?.approved_commit ?? null,
      approvedBy: row?.approved_by
        ? { id: row.approved_by, name: row.approved_by, email: '', role: '' }
        : null,
    }
  }

  /**
   * A commit's error count, kept per commit (a number, so many fit) after its snapshot is built:
   * the branches list never builds a snapshot the LRU has dropped again.
   */
  #problemCount(commit: string): Promise<number> {
    let hit = this.#problemCounts.get(commit)
    if (!hit) {
      hit = this.branches.branches.get(commit).then((s) => (s.ok ? 0 : s.errors.length))
      hit.catch(() => this.#problemCounts.delete(commit))
      this.#problemCounts.set(commit, hit)
      while (this.#problemCounts.size > 4096)
        this.#problemCounts.delete(this.#problemCounts.keys().next().value!)
    }
    return hit
  }

  /** Every validation error of a branch with the user's drafts laid over it. */
  async errors(
    branch: string,
    user?: StaffUser,
  ): Promise<{ commit: string; draftsHash: string; errors: DefinitionError[] }> {
    const s = await this.branches.snapshot(branch, user?.id)
    return { commit: s.commit, draftsHash: s.draftsHash, errors: s.result.ok ? [] : s.result.errors }
  }

  async problems(branch: string, user: StaffUser): Promise<number> {
    return (await this.errors(branch, user)).errors.length
  }

  /** Every definition file of a branch, with the user's drafts laid over and its state against live. */
  async files(branch: string, user: StaffUser, kind?: string): Promise<{ head: string; files: FileRow[] }> {
    const repo = this.content.repo
    const head = await this.branches.head(branch)
    const live = await this.liveCommit()
    // Independent reads at once: changes, drafts, the validated snapshot, the tree.
    const [changes, draftList, { errors }, tree] = await Promise.all([
      branch === LIVE_BRANCH ? [] : this.changedFiles(head, live),
      this.branches.drafts(user.id, branch),
      this.errors(branch, user),
      repo.lsTree(head, ['definitions/']),
    ])
    const changed = new Map(changes.map((f) => [f.path, f]))
    const drafts = new Map(draftList.map((d) => [d.path, d]))
    const problemsOf = (path: string) => errors.filter((e) => e.file === path).length
    const entries = tree.filter((e) => e.type === 'blob')
    const paths = new Set([
      ...entries.map((e) => e.path),
      ...[...drafts.keys()].filter((p) => p.startsWith('definitions/')),
    ])
    for (const c of changed.values()) if (c.status === 'deleted') paths.add(c.path)
    const rows: FileRow[] = []
    const experiments = new Map<string, string>()
    const wanted = [...paths].sort().filter((path) => {
      const k = kindOfPath(path).kind
      return !kind || k === kind || (kind === 'page' && k === 'experiment')
    })
    // Every text asked of the batch at once: one round trip's wait, not one per file.
    const texts = new Map(
      await Promise.all(
        wanted.map(async (path) => {
          const draft = drafts.get(path)
          return [path, draft ? draft.text : await repo.readText(`${head}:${path}`)] as const
        }),
      ),
    )
    for (const path of wanted) {
      const k = kindOfPath(path)
      const draft = drafts.get(path)
      const text = texts.get(path) ?? null
      if (k.kind === 'experiment' && text) {
        const exp = parseForDiff(text) as { page?: string; status?: string }
        if (exp && typeof exp === 'object' && exp.status === 'running' && exp.page)
          experiments.set(exp.page, k.id)
      }
      if (kind && k.kind !== kind) continue
      const c = changed.get(path)
      rows.push({
        path,
        ...k,
        state: draft
          ? draft.text === null
            ? 'deleted'
            : c?.status === 'added' || !draft.baseBlob
              ? 'added'
              : 'modified'
          : (c?.status ?? 'unchanged'),
        draft: !!draft,
        problems: problemsOf(path),
      })
    }
    for (const row of rows) {
      if (row.kind !== 'page') continue
      const doc = parseForDiff(texts.get(row.path) ?? null) as Record<string, unknown>
      const d = doc && typeof doc === 'object' ? doc : {}
      const str = (v: unknown) => (typeof v === 'string' ? v : null)
      const key = str(d.key) ?? row.id
      row.page = {
        key,
        path: str(d.path),
        aliases: Array.isArray(d.aliases) ? d.aliases.filter((a): a is string => typeof a === 'string') : [],
        template: str(d.template),
        brands: Array.isArray(d.brands) ? d.brands.filter((a): a is string => typeof a === 'string') : [],
        title: str(d.title),
        headline: str(d.headline),
        form: str(d.form),
        experiment: experiments.get(key) ?? null,
      }
    }
    return { head, files: rows }
  }

  /** One file of a branch: committed text, the user's draft, and the errors at its pointers. */
  async file(branch: string, user: StaffUser, path: string) {
    const repo = this.content.repo
    const head = await this.branches.head(branch)
    const blob = await repo.blobAt(head, path)
    const drafts = await this.branches.drafts(user.id, branch)
    const draft = drafts.find((d) => d.path === path)
    if (!blob && !draft) throw new ContentError(404, `no file "${path}" on branch "${branch}"`)
    const text = blob ? await repo.readText(blob) : null
    const { errors } = await this.errors(branch, user)
    return {
      path,
      ...kindOfPath(path),
      head,
      blob,
      text,
      draft: draft ? { text: draft.text, updatedAt: draft.updatedAt } : null,
      errors: errors.filter((e) => e.file === path),
    }
  }

  /** The branch's changes by file and JSON pointer against its merge-base with live. */
  async diff(branch: string): Promise<{
    base: string
    head: string
    files: (ChangedFile & { changes: FieldChange[]; binary?: boolean })[]
  }> {
    const repo = this.content.repo
    const head = await this.branches.head(branch)
    const live = await this.liveCommit()
    const base = (await repo.mergeBase(live, head)) ?? live
    return { base, head, files: await this.#fieldChanges(base, head, await this.changedFiles(head, live)) }
  }

  /** What one commit range changes (a publication: its old commit to its new), as the branch diff. */
  async commitDiff(base: string, head: string) {
    const repo = this.content.repo
    const changed: ChangedFile[] = []
    for (const path of await repo.changedPaths(base, head)) {
      const [before, after] = [await repo.blobAt(base, path), await repo.blobAt(head, path)]
      changed.push({ path, ...kindOfPath(path), status: !before ? 'added' : !after ? 'deleted' : 'modified' })
    }
    return { base, head, files: await this.#fieldChanges(base, head, changed) }
  }

  async #fieldChanges(base: string, head: string, changed: ChangedFile[]) {
    const repo = this.content.repo
    return Promise.all(
      changed.map(async (f): Promise<ChangedFile & { changes: FieldChange[]; binary?: boolean }> => {
        if (!f.path.endsWith('.json')) return { ...f, changes: [], binary: true }
        const [before, after] = await Promise.all([
          repo.readText(`${base}:${f.path}`),
          repo.readText(`${head}:${f.path}`),
        ])
        return { ...f, changes: jsonDiff(parseForDiff(before), parseForDiff(after)) }
      }),
    )
  }

  /** First-parent commits of a branch, newest first, with the Audit-Id trailer when there is one. */
  async history(branch: string, max = 50, path?: string) {
    const head = await this.branches.head(branch)
    const log = await this.content.repo.log(head, path ? 500 : max)
    const commits = []
    for (const c of log) {
      if (path) {
        const parent = await this.content.repo.resolve(`${c.commit}^`)
        const [a, b] = [
          await this.content.repo.blobAt(c.commit, path),
          parent ? await this.content.repo.blobAt(parent, path) : null,
        ]
        if (a === b) continue
      }
      commits.push({
        sha: c.commit,
        subject: c.subject,
        author: { name: c.author, email: c.email },
        date: c.at,
        auditId: /^Audit-Id: (\d+)$/m.exec(c.body)?.[1] ?? null,
      })
      if (commits.length >= max) break
    }
    return { head, commits }
  }
}
