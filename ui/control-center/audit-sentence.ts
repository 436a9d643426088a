import type { AuditEntry } from '../../schemas/generated/cc-answers/activity'

/** The fields of audit details the sentences read (every one optional: rows are kept for years). */
interface Details {
  paths?: string[]
  from?: string
  to?: string
  live?: string
  base?: string
  branch?: string
  merged?: string[]
  publication?: string
  /** publish.refused of a rollback: the publication it would have rolled back to before. */
  rollback?: string
  errors?: number
  reason?: string
  intended?: string
  at?: string
  brand?: string | null
  path?: string | null
  topic?: string
  status?: string
  article?: string
  experiment?: string
  email?: string
  role?: string
}

const short = (sha: unknown) => (typeof sha === 'string' ? sha.slice(0, 7) : '?')
const files = (paths: unknown) =>
  Array.isArray(paths) ? `${paths.length} file${paths.length === 1 ? '' : 's'}` : 'files'
const move = (d: Details, what = '') => (d.from && d.to ? ` — ${what}${short(d.from)} → ${short(d.to)}` : '')
/** A branch by name; the published ref is "live". */
const branchOf = (target: string | null) =>
  !target ? 'a branch' : target === 'refs/heads/published' ? 'live' : `branch ${target}`

/**
 * One readable sentence for an audit row (the Activity screen): who did what to which branch, with
 * names rather than ids, e.g. "Pub published branch spring-sale (3 files) — live abc1234 → def5678".
 * The raw details stay available beside it.
 */
export function auditSentence(
  e: Pick<AuditEntry, 'actor' | 'action' | 'target' | 'targetName' | 'details'>,
): string {
  const who = e.actor?.name ?? 'The system'
  const d = (e.details && typeof e.details === 'object' ? e.details : {}) as Details
  const on = branchOf(e.target)
  const person = e.targetName ?? d.email ?? e.target ?? 'a staff user'
  switch (e.action) {
    case 'login':
      return `${who} signed in`
    case 'logout':
      return `${who} signed out`
    case 'login-failed':
      return `A sign-in as ${e.target ?? 'an unknown account'} failed`
    case 'account-locked':
      return `The account of ${person} was locked after failed sign-ins`
    case 'staff-user-created':
      return `${who} added ${person} as ${d.role ?? 'staff'}`
    case 'staff-user-unlocked':
      return `${who} unlocked the account of ${person}`
    case 'role.change':
      return `${who} changed the role of ${person} from ${d.from ?? '?'} to ${d.to ?? '?'}`
    case 'branch.create':
      return `${who} created ${on}${d.base ? ` from ${d.base}` : ''}`
    case 'branch.update':
      return `${who} edited the title or description of ${on}`
    case 'branch.archive':
      return `${who} archived ${on}`
    case 'commit':
      return `${who} committed ${files(d.paths)} to ${on}${move(d)}`
    case 'merge-live':
      return `${who} updated ${on} from live${move(d)}`
    case 'review.request':
      return `${who} asked for a review of ${on}`
    case 'review.approve':
      return `${who} approved ${on}`
    case 'review.changes-requested':
      return `${who} requested changes on ${on}`
    case 'publish':
      return `${who} published ${on} (${files(d.paths)})${move(d, 'live ')}`
    case 'publish.scheduled-fired':
      return `The schedule ${who === 'The system' ? '' : `set by ${who} `}published ${on} (${files(d.paths)})${move(d, 'live ')}`
    case 'publish.refused':
      return `${who}'s ${d.rollback ? 'rollback' : 'publish'}${d.branch ? ` of branch ${d.branch}` : ''} was refused: ${d.errors ?? 'some'} error${d.errors === 1 ? '' : 's'}`
    case 'live.pushed':
      return `${who} pushed live with git (${files(d.paths)})${move(d, 'live ')}`
    case 'live.moved-outside':
      return `Live was moved outside the control center (${files(d.paths)})${move(d, 'live ')}`
    case 'publish.abandoned':
      return `A ${d.intended ?? 'publish'} of ${on} by ${who} did not reach live${d.reason ? `: ${d.reason}` : ''}`
    case 'publish.schedule':
      return `${who} scheduled ${on} to publish at ${d.at ?? '?'}`
    case 'publish.schedule-cancelled':
      return `The scheduled publish of ${on} was cancelled${d.reason ? `: ${d.reason}` : ` by ${who}`}`
    case 'rollback':
      return `${who} rolled live back to before publication #${d.publication ?? '?'} (${files(d.paths)})${move(d, 'live ')}`
    case 'publication.revert':
      return `${who} opened ${on} to revert only publication #${d.publication ?? '?'} (${files(d.paths)})`
    case 'preview.grant':
      return `${who} opened a preview of ${on}${d.brand ? ` on ${d.brand}` : ''}${d.path ? ` at ${d.path}` : ''}`
    case 'run.start':
      return `${who} started a content run on ${on}${d.topic ? `: “${d.topic}”` : ''}`
    case 'run.cancel':
      return `${who} cancelled a content run on ${on}`
    case 'run.finish':
      return `A content run on ${on} ended: ${d.status ?? 'finished'}`
    case 'run.to-article':
      return `${who} saved a content run as article ${d.article ?? ''} on ${on}`.replace('  ', ' ')
  }
  const [kind, verb = ''] = e.action.split('.', 2)
  if (kind === 'image')
    return `${who} ${verb}${verb.endsWith('e') ? 'd' : 'ed'} an image on ${on} (${files(d.paths)})`
  if (kind === 'experiment')
    return `${who} recorded “${verb}” for experiment ${d.experiment ?? ''} on ${on}`.replace('  ', ' ')
  return `${who}: ${e.action}${e.target ? ` on ${on}` : ''}`
}
