/**
 * Consent gate (TCPA; CONTROL-CENTER §7 item 1, decision 0930): every path of a changed funnel that
 * ends at the page's destination must have collected the phone number on a step that showed the
 * consent text, i.e. a step with a `tel` field (ui/funnel/FunnelForm.tsx, decision 0102), and nothing
 * may have changed the number after that. Proven on the funnel machine's own graph.
 *
 * Refused: a path where a `set-field` action wrote the phone, a path that skipped the step asking for
 * it, and a path that finishes before any such step — in a funnel that asks for a phone at all.
 */
import type { FunnelPageInfo } from '../../funnel/funnel-deps'
import type { GraphEvent } from '../../funnel/funnel-graph'
import { actionList } from '../../funnel/run-actions'
import type { DefinitionError, ResolvedFunnel, Snapshot } from '../../snapshot/types'
import { changedFunnels, funnelFile, funnelHash, pageGroups } from './changed-funnels'
import {
  type Budget,
  budgetOf,
  describePath,
  type ExploredPath,
  FunnelExplorer,
  GateBudgetError,
} from './funnel-explorer'
import { GATE_CACHE_SIZE, GATE_TIME_BUDGET_MS } from './gate-constants'
import { gateBudgetError, gateError, type Locate, LruCache } from './gate-errors'

const PHONE = 'phone'

/** One kind of failure on one step, with the first path that shows it. */
export interface ConsentFinding {
  /** Index of the step to blame (the one that sets, skips or finishes). */
  step: number
  path: string
  reason: string
  /** Other paths failing the same way. */
  more: number
}

export type ConsentResult = { ok: true; findings: ConsentFinding[] } | { ok: false; budget: string }

const asksForPhone = (funnel: ResolvedFunnel) =>
  funnel.steps.some(
    (s) =>
      s.fields.some((f) => f.name === PHONE || f.kind === 'tel') ||
      [...actionList(s.onEnter), ...actionList(s.onSubmit)].some(
        (a) => a.type === 'set-field' && a.field === PHONE,
      ),
  )

type Writer = { kind: 'consent' | 'set-field' | 'skip'; step: number } | null

/** Who last wrote the phone on a path: a consent-bearing submit, a set-field action, or a skip. */
function lastPhoneWriter(funnel: ResolvedFunnel, path: ExploredPath): Writer {
  let writer: Writer = null
  const see = (event: GraphEvent, step: number) => {
    const s = funnel.steps[step]
    const hasPhone = s.fields.some((f) => f.name === PHONE)
    if (event.type === 'SKIP' && hasPhone) writer = { kind: 'skip', step }
    else if (event.type === 'SUBMIT' && hasPhone)
      writer = { kind: s.fields.some((f) => f.kind === 'tel') ? 'consent' : 'set-field', step }
    else if (event.type.startsWith('xstate.done.actor.')) {
      const set = (event as { output?: { set?: Record<string, unknown> } }).output?.set ?? {}
      if (PHONE in set) writer = { kind: 'set-field', step }
    }
  }
  // Each event belongs to the step shown before it (whose actions ran), not the one it leads to.
  let step = 0
  for (const t of path.opening) {
    see(t.event, step)
    step = t.state.context.stepIndex
  }
  for (const [i, r] of path.results.entries()) {
    step = path.moves[i].step
    for (const t of r.trace) {
      see(t.event, step)
      step = t.state.context.stepIndex
    }
  }
  return writer
}

/** The consent findings of one funnel on pages with the given facts. */
export function checkFunnelConsent(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  budget: Budget = budgetOf(GATE_TIME_BUDGET_MS),
): ConsentResult {
  if (!asksForPhone(funnel)) return { ok: true, findings: [] }
  let paths: ExploredPath[]
  try {
    paths = new FunnelExplorer(funnel, page).simplePaths(budget)
  } catch (e) {
    if (e instanceof GateBudgetError) return { ok: false, budget: e.message }
    throw e
  }
  const byKind = new Map<string, ConsentFinding>()
  for (const path of paths) {
    if (path.end.kind !== 'finished') continue
    const writer = lastPhoneWriter(funnel, path)
    if (writer?.kind === 'consent') continue
    const last = path.moves.at(-1)?.step ?? 0
    const step = writer?.step ?? last
    const name = funnel.steps[step].name
    const reason =
      writer?.kind === 'set-field'
        ? `a set-field action on step "${name}" sets the phone`
        : writer?.kind === 'skip'
          ? `step "${name}" can be skipped`
          : `it finishes on step "${name}" before any step asking for the phone`
    const key = `${step} ${reason}`
    const seen = byKind.get(key)
    if (seen) {
      // Keep the shortest path as the example.
      const label = describePath(funnel, path.moves)
      if (label.length < seen.path.length) byKind.set(key, { ...seen, path: label, more: seen.more + 1 })
      else seen.more++
    } else byKind.set(key, { step, path: describePath(funnel, path.moves), reason, more: 0 })
  }
  return { ok: true, findings: [...byKind.values()] }
}

const defaultCache = new LruCache<ConsentResult>(GATE_CACHE_SIZE)

export interface GateOptions {
  budgetMs?: number
  now?: () => number
  locate?: Locate
  cache?: LruCache<ConsentResult>
}

/**
 * The consent gate over a publish: each changed funnel, on every page (or experiment variant) that
 * runs it. Results are cached by the resolved funnel's hash and the page's destination facts.
 */
export function consentGate(
  live: Snapshot | null,
  candidate: Snapshot,
  options: GateOptions = {},
): DefinitionError[] {
  const cache = options.cache ?? defaultCache
  const errors: DefinitionError[] = []
  for (const funnel of changedFunnels(live, candidate)) {
    const file = funnelFile(funnel.id)
    const hash = funnelHash(funnel)
    for (const { facts, pages } of pageGroups(candidate, funnel)) {
      const key = `${hash} ${facts.destination} ${facts.allowExternalDestination}`
      let result = cache.get(key)
      if (!result) {
        result = checkFunnelConsent(
          funnel,
          facts,
          budgetOf(options.budgetMs ?? GATE_TIME_BUDGET_MS, options.now),
        )
        // A budget failure is not cached: a later run on a less busy machine may finish.
        if (result.ok) cache.set(key, result)
      }
      const on = pages.length ? ` (pages ${pages.join(', ')})` : ''
      if (!result.ok) {
        errors.push(
          gateBudgetError(
            file,
            '/steps',
            `consent gate could not check every path within its budget (${result.budget}), so publishing is refused${on}; simplify the funnel's conditions, or an admin may publish with an override (audited)`,
            options.locate,
          ),
        )
        continue
      }
      for (const f of result.findings)
        errors.push(
          gateError(
            file,
            `/steps/${f.step}`,
            `path ${f.path} finishes with a phone number that no consent-bearing step collected: ${f.reason}${f.more ? ` (and ${f.more} more path${f.more === 1 ? '' : 's'})` : ''}${on}`,
            options.locate,
          ),
        )
    }
  }
  return errors
}
