/**
 * The JSON Schemas of the control center's API answers (schemas/cc-answers/*.schema.json,
 * docs/decisions/0975), server-side only. Each area schema's root lists its answers by name; a route
 * declares the name of its answer to ccRoute, which types the handler's result with the generated type,
 * and the API tests check every answer they receive against the schema (docs/decisions/0976).
 */
import { describeErrors, registerSchemas, validatorFor } from '../../../engine/definitions/validators'
import activity from '../../../schemas/cc-answers/activity.schema.json' with { type: 'json' }
import articles from '../../../schemas/cc-answers/articles.schema.json' with { type: 'json' }
import branches from '../../../schemas/cc-answers/branches.schema.json' with { type: 'json' }
import common from '../../../schemas/cc-answers/common.schema.json' with { type: 'json' }
import editor from '../../../schemas/cc-answers/editor.schema.json' with { type: 'json' }
import errors from '../../../schemas/cc-answers/errors.schema.json' with { type: 'json' }
import experiments from '../../../schemas/cc-answers/experiments.schema.json' with { type: 'json' }
import funnels from '../../../schemas/cc-answers/funnels.schema.json' with { type: 'json' }
import gates from '../../../schemas/cc-answers/gates.schema.json' with { type: 'json' }
import images from '../../../schemas/cc-answers/images.schema.json' with { type: 'json' }
import leads from '../../../schemas/cc-answers/leads.schema.json' with { type: 'json' }
import live from '../../../schemas/cc-answers/live.schema.json' with { type: 'json' }
import phoneRules from '../../../schemas/cc-answers/phone-rules.schema.json' with { type: 'json' }
import presence from '../../../schemas/cc-answers/presence.schema.json' with { type: 'json' }
import publishing from '../../../schemas/cc-answers/publishing.schema.json' with { type: 'json' }
import runs from '../../../schemas/cc-answers/runs.schema.json' with { type: 'json' }
import type { CcActivityAnswers } from '../../../schemas/generated/cc-answers/activity'
import type { CcArticleAnswers } from '../../../schemas/generated/cc-answers/articles'
import type { CcBranchAnswers } from '../../../schemas/generated/cc-answers/branches'
import type { CcEditorAnswers } from '../../../schemas/generated/cc-answers/editor'
import type { CcErrorAnswers } from '../../../schemas/generated/cc-answers/errors'
import type { CcExperimentAnswers } from '../../../schemas/generated/cc-answers/experiments'
import type { CcFunnelAnswers } from '../../../schemas/generated/cc-answers/funnels'
import type { CcGateAnswers } from '../../../schemas/generated/cc-answers/gates'
import type { CcImageAnswers } from '../../../schemas/generated/cc-answers/images'
import type { CcLeadAnswers } from '../../../schemas/generated/cc-answers/leads'
import type { CcLiveAnswers } from '../../../schemas/generated/cc-answers/live'
import type { CcPhoneRuleAnswers } from '../../../schemas/generated/cc-answers/phone-rules'
import type { CcPresenceAnswers } from '../../../schemas/generated/cc-answers/presence'
import type { CcPublishingAnswers } from '../../../schemas/generated/cc-answers/publishing'
import type { CcRunAnswers } from '../../../schemas/generated/cc-answers/runs'

/** The area schemas by file, as registered with the validator (common first: the others refer to it). */
const SCHEMAS = {
  'cc-answers/common.schema.json': common,
  'cc-answers/gates.schema.json': gates,
  'cc-answers/images.schema.json': images,
  'cc-answers/activity.schema.json': activity,
  'cc-answers/articles.schema.json': articles,
  'cc-answers/branches.schema.json': branches,
  'cc-answers/editor.schema.json': editor,
  'cc-answers/errors.schema.json': errors,
  'cc-answers/experiments.schema.json': experiments,
  'cc-answers/funnels.schema.json': funnels,
  'cc-answers/leads.schema.json': leads,
  'cc-answers/live.schema.json': live,
  'cc-answers/phone-rules.schema.json': phoneRules,
  'cc-answers/presence.schema.json': presence,
  'cc-answers/publishing.schema.json': publishing,
  'cc-answers/runs.schema.json': runs,
}
registerSchemas(SCHEMAS)

/** Every answer's type by its name: the properties of the area schemas' roots (generated, so never out of step). */
export type CcAnswerTypes = Required<
  CcActivityAnswers &
    CcArticleAnswers &
    CcBranchAnswers &
    CcEditorAnswers &
    CcErrorAnswers &
    CcExperimentAnswers &
    CcFunnelAnswers &
    CcGateAnswers &
    CcImageAnswers &
    CcLeadAnswers &
    CcLiveAnswers &
    CcPhoneRuleAnswers &
    CcPresenceAnswers &
    CcPublishingAnswers &
    CcRunAnswers
> & {
  /** No body (204). */
  none: undefined
}

export type CcAnswerName = keyof CcAnswerTypes

/** Answer name → the schema to check it with (`file#pointer`), read from the area schemas' roots. */
export const CC_ANSWER_SCHEMAS: ReadonlyMap<string, string> = new Map(
  Object.entries(SCHEMAS).flatMap(([file, schema]) =>
    Object.entries((schema as { properties?: Record<string, { $ref: string }> }).properties ?? {}).map(
      ([name, { $ref }]) => {
        const [target, pointer] = $ref.split('#')
        const folder = file.slice(0, file.lastIndexOf('/') + 1)
        return [name, `${target ? `${folder}${target}` : file}#${pointer}`] as const
      },
    ),
  ),
)

/** The body of every /api/cc/* refusal. */
export const CC_ERROR_ANSWER: CcAnswerName = 'CcError'

/**
 * What is wrong with an answer of `status` to a route that declares `name` (empty: nothing): a success
 * must match the route's answer schema (`none`: no body at all), a refusal the error schema.
 */
export function ccAnswerProblems(name: CcAnswerName, status: number, body: string): string[] {
  const schemaName = status >= 400 ? CC_ERROR_ANSWER : name
  if (schemaName === 'none') return body === '' ? [] : [`declared no body, sent ${body.length} bytes`]
  const schema = CC_ANSWER_SCHEMAS.get(schemaName)
  if (!schema) return [`no answer schema named ${schemaName}`]
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return [`${schemaName}: the body is not JSON (${body.slice(0, 80)})`]
  }
  const validate = validatorFor(schema)
  if (validate(json)) return []
  return describeErrors(validate.errors ?? []).map(
    (p) => `${schemaName} ${`${p.pointer}${p.property ? `/${p.property}` : ''}` || '/'}: ${p.message}`,
  )
}
