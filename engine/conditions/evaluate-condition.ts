import type { Condition } from '../../schemas/generated/condition'
import { LOW_BID_THRESHOLD } from '../constants'
import type { DemandCheckResult, FormValues } from '../runtime-contracts'

/** What a condition may look at: the answers so far and the last demand-check result. */
export interface ConditionContext {
  values: FormValues
  demand: DemandCheckResult | null
}

/** Answers compare loosely by text, so a definition may write `false` or `"false"`, `2` or `"2"`. */
function same(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && a !== '' && String(a) === String(b))
}

function isLowBid(demand: DemandCheckResult | null): boolean {
  // Unknown demand is not a low bid: a failed check must not send visitors down the low-bid branch.
  if (!demand) return false
  return demand.isLowBid || demand.bid < LOW_BID_THRESHOLD
}

/** Evaluates a named predicate from a definition (condition.schema.json). Pure. */
export function evaluateCondition(condition: Condition, ctx: ConditionContext): boolean {
  switch (condition.type) {
    case 'answer-equals':
      return same(ctx.values[condition.field], condition.value)
    case 'answer-in':
      return condition.values.some((v) => same(ctx.values[condition.field], v))
    case 'low-bid':
      return isLowBid(ctx.demand)
    case 'not-low-bid':
      return ctx.demand !== null && !isLowBid(ctx.demand)
    case 'not':
      return !evaluateCondition(condition.condition, ctx)
    case 'all':
      return condition.conditions.every((c) => evaluateCondition(c, ctx))
    case 'any':
      return condition.conditions.some((c) => evaluateCondition(c, ctx))
  }
}
