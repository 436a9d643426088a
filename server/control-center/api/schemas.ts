/** The JSON Schemas of the control center's API bodies (schemas/api-cc-*.schema.json), server-side only. */
import type { Context } from 'koa'
import { CC_BODY_LIMIT_BYTES } from '../../../engine/constants'
import { registerSchemas } from '../../../engine/definitions/validators'
import branchCreate from '../../../schemas/api-cc-branch-create.schema.json' with { type: 'json' }
import branchUpdate from '../../../schemas/api-cc-branch-update.schema.json' with { type: 'json' }
import commit from '../../../schemas/api-cc-commit.schema.json' with { type: 'json' }
import draft from '../../../schemas/api-cc-draft.schema.json' with { type: 'json' }
import emergencyPause from '../../../schemas/api-cc-emergency-pause.schema.json' with { type: 'json' }
import experimentCreate from '../../../schemas/api-cc-experiment-create.schema.json' with { type: 'json' }
import experimentDecision from '../../../schemas/api-cc-experiment-decision.schema.json' with { type: 'json' }
import lead from '../../../schemas/api-cc-lead.schema.json' with { type: 'json' }
import liveRestore from '../../../schemas/api-cc-live-restore.schema.json' with { type: 'json' }
import mergeLive from '../../../schemas/api-cc-merge-live.schema.json' with { type: 'json' }
import presence from '../../../schemas/api-cc-presence.schema.json' with { type: 'json' }
import preview from '../../../schemas/api-cc-preview.schema.json' with { type: 'json' }
import publish from '../../../schemas/api-cc-publish.schema.json' with { type: 'json' }
import review from '../../../schemas/api-cc-review.schema.json' with { type: 'json' }
import rollback from '../../../schemas/api-cc-rollback.schema.json' with { type: 'json' }
import run from '../../../schemas/api-cc-run.schema.json' with { type: 'json' }
import { readJson } from '../../http/read-json'

export const CC_SCHEMAS = {
  branchCreate: 'api-cc-branch-create.schema.json',
  branchUpdate: 'api-cc-branch-update.schema.json',
  commit: 'api-cc-commit.schema.json',
  draft: 'api-cc-draft.schema.json',
  emergencyPause: 'api-cc-emergency-pause.schema.json',
  experimentCreate: 'api-cc-experiment-create.schema.json',
  experimentDecision: 'api-cc-experiment-decision.schema.json',
  lead: 'api-cc-lead.schema.json',
  liveRestore: 'api-cc-live-restore.schema.json',
  mergeLive: 'api-cc-merge-live.schema.json',
  presence: 'api-cc-presence.schema.json',
  preview: 'api-cc-preview.schema.json',
  publish: 'api-cc-publish.schema.json',
  review: 'api-cc-review.schema.json',
  rollback: 'api-cc-rollback.schema.json',
  run: 'api-cc-run.schema.json',
} as const

registerSchemas({
  [CC_SCHEMAS.branchCreate]: branchCreate,
  [CC_SCHEMAS.branchUpdate]: branchUpdate,
  [CC_SCHEMAS.commit]: commit,
  [CC_SCHEMAS.draft]: draft,
  [CC_SCHEMAS.emergencyPause]: emergencyPause,
  [CC_SCHEMAS.experimentCreate]: experimentCreate,
  [CC_SCHEMAS.experimentDecision]: experimentDecision,
  [CC_SCHEMAS.lead]: lead,
  [CC_SCHEMAS.liveRestore]: liveRestore,
  [CC_SCHEMAS.mergeLive]: mergeLive,
  [CC_SCHEMAS.presence]: presence,
  [CC_SCHEMAS.preview]: preview,
  [CC_SCHEMAS.publish]: publish,
  [CC_SCHEMAS.review]: review,
  [CC_SCHEMAS.rollback]: rollback,
  [CC_SCHEMAS.run]: run,
})

/** Reads a control center body: JSON of at most CC_BODY_LIMIT_BYTES that matches one of CC_SCHEMAS. */
export function readCcBody<T>(
  ctx: Context,
  schema: (typeof CC_SCHEMAS)[keyof typeof CC_SCHEMAS],
): Promise<T> {
  return readJson<T>(ctx, { limit: CC_BODY_LIMIT_BYTES, schema })
}
