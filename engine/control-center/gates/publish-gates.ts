/**
 * The publish gates over one candidate snapshot (CONTROL-CENTER §7, decision 0930): the blocking
 * ones (consent gate, smoke run) and the impact report (path diff, shared-step impact) shown in the
 * branch's Checks and Impact tabs. `live` is what is published now (null when nothing is, or it does
 * not build: then every funnel counts as changed).
 */
import type { DefinitionError, Snapshot } from '../../snapshot/types'
import { consentGate } from './consent-gate'
import type { Locate } from './gate-errors'
import { type PathDiff, pathDiff } from './path-diff'
import { smokeRun } from './smoke-run'
import { type StepImpact, stepImpact } from './step-impact'

export interface GateImpact {
  paths: PathDiff
  steps: StepImpact[]
}

export interface GateReport {
  /** Blocking: a publish with any of these is refused. */
  errors: DefinitionError[]
  impact: GateImpact
}

/** The blocking gates only (what a publish runs). */
export async function blockingGates(
  live: Snapshot | null,
  candidate: Snapshot,
  options: { locate?: Locate; budgetMs?: number } = {},
): Promise<DefinitionError[]> {
  return [...consentGate(live, candidate, options), ...(await smokeRun(live, candidate, options))]
}

export function gateImpact(live: Snapshot | null, candidate: Snapshot): GateImpact {
  return { paths: pathDiff(live, candidate), steps: stepImpact(live, candidate) }
}

export async function publishGates(
  live: Snapshot | null,
  candidate: Snapshot,
  options: { locate?: Locate; budgetMs?: number } = {},
): Promise<GateReport> {
  return { errors: await blockingGates(live, candidate, options), impact: gateImpact(live, candidate) }
}
