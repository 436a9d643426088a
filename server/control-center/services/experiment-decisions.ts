/**
 * Experiment decisions as commits (issue 16, CONTROL-CENTER §4 "Decisions"): a new experiment, Start,
 * Pause, Finish and "Ship variant X" each write one small commit on a branch (field edits in place,
 * so the diff is the decision), audited with the commit's Audit-Id; going live is the normal publish.
 * A publisher's emergency pause does the same on a branch of its own and publishes it at once.
 */
import { parseForDiff } from '../../../engine/control-center/content/json-diff'
import { assertCan } from '../../../engine/control-center/content/permissions'
import { setField } from '../../../engine/control-center/content/set-field'
import type { Experiment, ExperimentOverrides } from '../../../schemas/generated/experiment'
import type { ContentServices } from '../../content/content-services'
import { branchRef, LIVE_BRANCH } from '../../content/git/branch-name'
import { auditWithId, nextAuditId, type StaffUser } from '../../store/auth-store'
import type { Db } from '../../store/db'
import { authorOf, commitMessage } from './branch-service'
import { ContentError } from './content-errors'
import type { Publication } from './publisher'

export type ExperimentDecision = 'start' | 'pause' | 'finish' | 'ship'

const STATUS_OF: Record<ExperimentDecision, Experiment['status']> = {
  start: 'running',
  pause: 'paused',
  finish: 'finished',
  ship: 'finished',
}

export const experimentPath = (id: string) => `definitions/experiments/${id}.json`

/** The page file whose key (or file name) is `key` at a commit, with its text. */
export async function pageFileAt(
  content: ContentServices,
  commit: string,
  key: string,
): Promise<{ path: string; text: string; doc: Record<string, unknown> } | null> {
  const repo = content.repository.repo
  const direct = `definitions/pages/${key}.json`
  const entries = (await repo.lsTree(commit, ['definitions/pages/'])).filter((e) => e.type === 'blob')
  // The file named after the key first; a page whose `key` differs from its file name after.
  const ordered = [...entries.filter((e) => e.path === direct), ...entries.filter((e) => e.path !== direct)]
  for (const e of ordered) {
    const text = await repo.readText(`${commit}:${e.path}`)
    const doc = parseForDiff(text) as Record<string, unknown> | null
    if (!text || !doc || typeof doc !== 'object') continue
    if ((typeof doc.key === 'string' ? doc.key : e.path.slice(18, -5)) === key)
      return { path: e.path, text, doc }
  }
  return null
}

/** The experiment file at a commit, parsed; null when absent or not JSON. */
export async function experimentAt(
  content: ContentServices,
  commit: string,
  id: string,
): Promise<{ text: string; experiment: Experiment } | null> {
  const text = await content.repository.repo.readText(`${commit}:${experimentPath(id)}`)
  const experiment = parseForDiff(text) as Experiment | null
  return text && experiment && typeof experiment === 'object' ? { text, experiment } : null
}

/**
 * One commit on `branch` from `edit(head)`: the files it returns, or nothing to do (409). The branch
 * head is read inside the repository's exclusive section; `expectedHead` (when given) must still be it.
 */
async function commitOnBranch(
  content: ContentServices,
  db: Db,
  user: StaffUser,
  branch: string,
  input: {
    expectedHead?: string
    action: string
    details: object
    /** The files to commit and the commit message's subject and body. */
    edit: (
      head: string,
    ) => Promise<{ changes: { path: string; content: string }[]; subject: string; body: string }>
  },
): Promise<{ commit: string; parent: string; paths: string[] }> {
  if (branch === LIVE_BRANCH) throw new ContentError(400, 'live is read-only: create a branch to decide')
  const repository = content.repository
  return repository.exclusive(async () => {
    await repository.sync()
    const head = await content.branches.head(branch)
    if (input.expectedHead && input.expectedHead !== head)
      throw new ContentError(
        409,
        `branch "${branch}" changed since you looked: head is ${head.slice(0, 12)}, not ${input.expectedHead.slice(0, 12)}`,
      )
    const { changes, subject, body } = await input.edit(head)
    assertCan(user, 'branch.edit', { paths: changes.map((c) => c.path) })
    const auditId = await nextAuditId(db)
    const commit = await repository.repo.commitFiles(
      head,
      changes,
      commitMessage(subject, user, auditId, body),
      authorOf(user),
    )
    await repository.moveRef(branchRef(branch), commit, head)
    await auditWithId(db, auditId, {
      actor: user.id,
      action: input.action,
      target: branch,
      details: { ...input.details, paths: changes.map((c) => c.path), from: head, to: commit },
    })
    return { commit, parent: head, paths: changes.map((c) => c.path) }
  })
}

/** The page text with a variant's overrides written into it, field by field (a small diff). */
function withOverrides(pageText: string, page: Record<string, unknown>, o: ExperimentOverrides): string {
  let text = pageText
  for (const field of ['headline', 'subheadline', 'image', 'form'] as const)
    if (o[field] !== undefined) text = setField(text, `/${field}`, o[field])
  if (o.cta) {
    if (page.cta && typeof page.cta === 'object') {
      text = setField(text, '/cta/label', o.cta.label)
      if (o.cta.href !== undefined) text = setField(text, '/cta/href', o.cta.href)
    } else text = setField(text, '/cta', o.cta)
  }
  return text
}

/** Start, Pause, Finish or Ship a variant: one commit on the branch. */
export async function decideExperiment(
  content: ContentServices,
  db: Db,
  user: StaffUser,
  branch: string,
  id: string,
  input: { decision: ExperimentDecision; variant?: string; expectedHead?: string },
): Promise<{ commit: string; parent: string; paths: string[] }> {
  assertCan(user, 'branch.edit')
  const status = STATUS_OF[input.decision]
  if (input.decision === 'ship' && !input.variant)
    throw new ContentError(400, '/variant: name the variant to ship')
  if (input.decision !== 'ship' && input.variant)
    throw new ContentError(400, '/variant: only a ship decision names a variant')
  return commitOnBranch(content, db, user, branch, {
    expectedHead: input.expectedHead,
    action: `experiment.${input.decision}`,
    details: { experiment: id, ...(input.variant ? { variant: input.variant } : {}) },
    edit: async (head) => {
      const found = await experimentAt(content, head, id)
      if (!found) throw new ContentError(404, `no experiment "${id}" on branch "${branch}"`)
      const { experiment } = found
      if (experiment.status === status && input.decision !== 'ship')
        throw new ContentError(409, `experiment "${id}" is already ${status} on branch "${branch}"`)
      if (input.decision === 'start' && experiment.status === 'finished')
        throw new ContentError(409, `experiment "${id}" is finished: start a new experiment instead`)
      const changes = [{ path: experimentPath(id), content: setField(found.text, '/status', status) }]
      if (input.decision !== 'ship') {
        const verb = { start: 'Start', pause: 'Pause', finish: 'Finish' }[input.decision]
        return {
          changes,
          subject: `${verb} experiment ${id}`,
          body: `Status ${experiment.status} → ${status}.`,
        }
      }
      const variant = experiment.variants.find((v) => v.id === input.variant)
      if (!variant) throw new ContentError(404, `experiment "${id}" has no variant "${input.variant}"`)
      const page = await pageFileAt(content, head, experiment.page)
      if (!page)
        throw new ContentError(404, `page "${experiment.page}" of experiment "${id}" is not on the branch`)
      const overrides = variant.overrides ?? {}
      const fields = Object.keys(overrides)
      if (fields.length)
        changes.push({ path: page.path, content: withOverrides(page.text, page.doc, overrides) })
      return {
        changes,
        subject: `Ship variant ${variant.id} of experiment ${id}`,
        body: fields.length
          ? `Copies the variant's ${fields.join(', ')} into ${page.path} and finishes the experiment.`
          : `The variant changes nothing on ${page.path} (it is the page as written); finishes the experiment.`,
      }
    },
  })
}

/** A new experiment on a page: control (the page as written) and one variant with a new headline. */
export async function createExperiment(
  content: ContentServices,
  db: Db,
  user: StaffUser,
  branch: string,
  input: {
    id: string
    page: string
    description: string
    variant: string
    headline: string
    expectedHead?: string
  },
): Promise<{ commit: string; parent: string; paths: string[] }> {
  assertCan(user, 'branch.edit')
  if (input.variant === 'control') throw new ContentError(400, '/variant: "control" is the page as written')
  const path = experimentPath(input.id)
  return commitOnBranch(content, db, user, branch, {
    expectedHead: input.expectedHead,
    action: 'experiment.create',
    details: { experiment: input.id, page: input.page },
    edit: async (head) => {
      if (await content.repository.repo.blobAt(head, path))
        throw new ContentError(409, `experiment "${input.id}" already exists on branch "${branch}"`)
      if (!(await pageFileAt(content, head, input.page)))
        throw new ContentError(404, `no page "${input.page}" on branch "${branch}"`)
      const doc = {
        $schema: '../../schemas/experiment.schema.json',
        id: input.id,
        description: input.description.trim(),
        page: input.page,
        status: 'draft',
        variants: [
          { id: 'control', weight: 50, description: 'The page as written.' },
          {
            id: input.variant,
            weight: 50,
            description: 'A new headline.',
            overrides: { headline: input.headline.trim() },
          },
        ],
      }
      return {
        changes: [{ path, content: `${JSON.stringify(doc, null, 2)}\n` }],
        subject: `New experiment ${input.id} on page ${input.page}`,
        body: input.description,
      }
    },
  })
}

/**
 * A publisher's emergency pause of a live experiment: a branch of its own from live, the pause
 * committed on it, and published at once through the normal publish (validation gates, the
 * publications log, every instance swaps). No second approval: it is a stop, not a change of content.
 */
export async function emergencyPause(
  content: ContentServices,
  db: Db,
  user: StaffUser,
  id: string,
  reason: string,
): Promise<{ branch: string; commit: string; publication: Publication }> {
  assertCan(user, 'publish')
  const live = await content.repository.live()
  const found = live ? await experimentAt(content, live, id) : null
  if (!found) throw new ContentError(404, `unknown experiment "${id}" (not published)`)
  if (found.experiment.status !== 'running')
    throw new ContentError(409, `experiment "${id}" is not running live (it is ${found.experiment.status})`)
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)
  const branch = `${`pause-${id}`.slice(0, 48).replace(/-+$/, '')}-${stamp}`
  await content.branches.createBranch(user, {
    name: branch,
    title: `Emergency pause of ${id}`,
    description: reason || 'Paused at once from the experiment screen.',
  })
  const { commit } = await commitOnBranch(content, db, user, branch, {
    action: 'experiment.emergency-pause',
    details: { experiment: id, ...(reason ? { reason } : {}) },
    edit: async (head) => {
      const now = await experimentAt(content, head, id)
      if (!now) throw new ContentError(404, `unknown experiment "${id}"`)
      return {
        changes: [{ path: experimentPath(id), content: setField(now.text, '/status', 'paused') }],
        subject: `Emergency pause of experiment ${id}`,
        body: reason ? `Reason: ${reason}` : 'Paused at once from the experiment screen.',
      }
    },
  })
  const publication = await content.publisher.publish(user, branch, { expectedHead: commit }, 'emergency')
  return { branch, commit, publication }
}
