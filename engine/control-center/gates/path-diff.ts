/**
 * Path-impact diff (CONTROL-CENTER §7 item 2): for each funnel whose resolved definition differs from
 * live, both graphs of the funnel machine, compared. Nodes are steps; an edge is a move on a step
 * (the answer class: a valid answer, "no", a skip, a choice a condition reads) with the action that
 * decided it, to the next step or an end. Plain JSON for the branch's Impact tab.
 */
import type { FunnelPageInfo } from '../../funnel/funnel-deps'
import type { ResolvedFunnel, Snapshot } from '../../snapshot/types'
import { changedFunnels, funnelFile, pageFacts, pagesRunning } from './changed-funnels'
import {
  type Budget,
  budgetOf,
  describeEnd,
  describePath,
  FunnelExplorer,
  GateBudgetError,
  type PathEnd,
} from './funnel-explorer'
import { GATE_TIME_BUDGET_MS } from './gate-constants'

export interface PathEdge {
  from: string
  /** `answer`, `no`, `skip`, `field=value`, or `any answer` when yes and no go the same way. */
  answer: string
  /** `next`, `stay`, `go-to-step`, `finish`, `go-to-page /x`. */
  action: string
  /** A step name, `destination /x`, `page /x` or `refused`. */
  to: string
}

export interface FunnelGraphView {
  steps: string[]
  edges: PathEdge[]
  unreachable: string[]
  deadEnds: string[]
}

export interface FunnelPathDiff {
  funnel: string
  file: string
  /** `added` when live has no such funnel. */
  status: 'added' | 'changed'
  /** The candidate's graph, every edge marked, for drawing. */
  edges: (PathEdge & { change: 'added' | 'removed' | 'same' })[]
  edgesAdded: PathEdge[]
  edgesRemoved: PathEdge[]
  /** Paths both versions have whose end differs: "zip→medicare(no)" used to end at X, now at Y. */
  endsChanged: { path: string; before: string; after: string }[]
  pathsAdded: string[]
  pathsRemoved: string[]
  /** Steps no visitor can reach now that could before (or are new). */
  newUnreachable: string[]
  /** Steps that keep the visitor on them whatever the answer, now (and did not before). */
  newDeadEnds: string[]
  /** Set when exploring ran past the budget: the diff is then incomplete. */
  incomplete?: string
}

export interface PathDiff {
  funnels: FunnelPathDiff[]
}

const endLabel = (end: PathEnd) =>
  end.kind === 'refused' ? 'refused' : end.kind === 'finished' ? `destination ${end.to}` : `page ${end.to}`

const edgeKey = (e: PathEdge) => JSON.stringify([e.from, e.answer, e.action, e.to])

/** The funnel's graph as named edges, plus the steps nobody reaches and those that cannot end. */
export function funnelGraph(funnel: ResolvedFunnel, page: FunnelPageInfo, budget: Budget): FunnelGraphView {
  const g = new FunnelExplorer(funnel, page).explore(budget)
  const name = (i: number) => funnel.steps[i].name
  const grouped = new Map<string, PathEdge & { answers: string[] }>()
  for (const t of g.transitions) {
    const to = typeof t.to === 'number' ? name(t.to) : endLabel(t.to)
    const key = JSON.stringify([t.from, t.action, to])
    const e = grouped.get(key) ?? { from: name(t.from), answer: '', action: t.action, to, answers: [] }
    e.answers.push(t.answer)
    grouped.set(key, e)
  }
  const edges: PathEdge[] = []
  for (const { answers, ...e } of grouped.values()) {
    const both = answers.includes('answer') && answers.includes('no')
    const rest = answers.filter((a) => !both || (a !== 'answer' && a !== 'no'))
    if (both) edges.push({ ...e, answer: 'any answer' })
    for (const a of rest) edges.push({ ...e, answer: a })
  }
  edges.sort((a, b) => edgeKey(a).localeCompare(edgeKey(b)))
  return {
    steps: funnel.steps.map((s) => s.name),
    edges,
    unreachable: funnel.steps.filter((_, i) => !g.reached.has(i)).map((s) => s.name),
    // A dead end: a step every move of which leaves the visitor on it.
    deadEnds: [...g.reached]
      .filter((i) => g.transitions.every((t) => t.from !== i || t.to === i))
      .sort((x, y) => x - y)
      .map(name),
  }
}

/**
 * Paths whose end changed: the same answers (one path a prefix of the other, or equal) ending
 * elsewhere. Named by the shorter path, with "→…" when the longer one goes on.
 */
function changedEnds(
  before: Map<string, string>,
  after: Map<string, string>,
): { path: string; before: string; after: string }[] {
  const out = new Map<string, { path: string; before: string; after: string }>()
  const starts = (long: string, short: string) => long === short || long.startsWith(`${short}→`)
  for (const [p, end] of after)
    for (const [q, was] of before) {
      if (was === end || !(starts(p, q) || starts(q, p))) continue
      const path = p.length <= q.length ? (p === q ? p : `${p}→…`) : `${q}→…`
      const key = JSON.stringify([path, was, end])
      if (!out.has(key)) out.set(key, { path, before: was, after: end })
    }
  return [...out.values()]
}

function pathEnds(funnel: ResolvedFunnel, page: FunnelPageInfo, budget: Budget): Map<string, string> {
  const out = new Map<string, string>()
  for (const p of new FunnelExplorer(funnel, page).simplePaths(budget))
    out.set(describePath(funnel, p.moves), describeEnd(p.end))
  return out
}

/** The diff of one funnel between live (undefined when new) and the candidate. */
export function funnelPathDiff(
  before: ResolvedFunnel | undefined,
  after: ResolvedFunnel,
  page: FunnelPageInfo,
  budgetMs = GATE_TIME_BUDGET_MS,
  now?: () => number,
): FunnelPathDiff {
  const diff: FunnelPathDiff = {
    funnel: after.id,
    file: funnelFile(after.id),
    status: before ? 'changed' : 'added',
    edges: [],
    edgesAdded: [],
    edgesRemoved: [],
    endsChanged: [],
    pathsAdded: [],
    pathsRemoved: [],
    newUnreachable: [],
    newDeadEnds: [],
  }
  const budget = budgetOf(budgetMs, now)
  try {
    const a = funnelGraph(after, page, budget)
    const b = before
      ? funnelGraph(before, page, budget)
      : { edges: [], unreachable: [], deadEnds: [], steps: [] }
    const had = new Set(b.edges.map(edgeKey))
    const has = new Set(a.edges.map(edgeKey))
    diff.edgesAdded = a.edges.filter((e) => !had.has(edgeKey(e)))
    diff.edgesRemoved = b.edges.filter((e) => !has.has(edgeKey(e)))
    diff.edges = [
      ...a.edges.map((e) => ({ ...e, change: had.has(edgeKey(e)) ? ('same' as const) : ('added' as const) })),
      ...diff.edgesRemoved.map((e) => ({ ...e, change: 'removed' as const })),
    ]
    diff.newUnreachable = a.unreachable.filter((s) => !b.unreachable.includes(s))
    diff.newDeadEnds = a.deadEnds.filter((s) => !b.deadEnds.includes(s))
    const ends = pathEnds(after, page, budget)
    const old = before ? pathEnds(before, page, budget) : new Map<string, string>()
    for (const path of ends.keys()) if (!old.has(path)) diff.pathsAdded.push(path)
    diff.endsChanged = changedEnds(old, ends)
    diff.pathsRemoved = before ? [...old.keys()].filter((p) => !ends.has(p)) : []
  } catch (e) {
    if (!(e instanceof GateBudgetError)) throw e
    diff.incomplete = `exploring the funnel ran past its budget (${e.message})`
  }
  return diff
}

/** The path diff of a publish: every funnel whose resolved definition differs from live. */
export function pathDiff(
  live: Snapshot | null,
  candidate: Snapshot,
  options: { budgetMs?: number; now?: () => number } = {},
): PathDiff {
  return {
    funnels: changedFunnels(live, candidate).map((f) =>
      funnelPathDiff(
        live?.funnels.get(f.id),
        f,
        pageFacts(pagesRunning(candidate, f.id)[0]?.page, f),
        options.budgetMs,
        options.now,
      ),
    ),
  }
}
