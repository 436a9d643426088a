import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import actionSchema from '../../schemas/action.schema.json' with { type: 'json' }
import analyticsEventSchema from '../../schemas/analytics-event.schema.json' with { type: 'json' }
import apiConsentRecordSchema from '../../schemas/api-consent-record.schema.json' with { type: 'json' }
import apiDemandCheckBodySchema from '../../schemas/api-demand-check-body.schema.json' with { type: 'json' }
import apiErrorSchema from '../../schemas/api-error.schema.json' with { type: 'json' }
import apiGetPhoneAnswerSchema from '../../schemas/api-get-phone-answer.schema.json' with { type: 'json' }
import apiGetPhoneBodySchema from '../../schemas/api-get-phone-body.schema.json' with { type: 'json' }
import apiIpSchema from '../../schemas/api-ip.schema.json' with { type: 'json' }
import apiMarketplaceSchema from '../../schemas/api-marketplace.schema.json' with { type: 'json' }
import articleSchema from '../../schemas/article.schema.json' with { type: 'json' }
import authLoginSchema from '../../schemas/auth-login.schema.json' with { type: 'json' }
import authSessionSchema from '../../schemas/auth-session.schema.json' with { type: 'json' }
import authorSchema from '../../schemas/author.schema.json' with { type: 'json' }
import brandSchema from '../../schemas/brand.schema.json' with { type: 'json' }
import clientErrorReportSchema from '../../schemas/client-error-report.schema.json' with { type: 'json' }
import commonSchema from '../../schemas/common.schema.json' with { type: 'json' }
import conditionSchema from '../../schemas/condition.schema.json' with { type: 'json' }
import consentSchema from '../../schemas/consent.schema.json' with { type: 'json' }
import experimentSchema from '../../schemas/experiment.schema.json' with { type: 'json' }
import fieldSchema from '../../schemas/field.schema.json' with { type: 'json' }
import funnelSchema from '../../schemas/funnel.schema.json' with { type: 'json' }
import imageSchema from '../../schemas/image.schema.json' with { type: 'json' }
import pageSchema from '../../schemas/page.schema.json' with { type: 'json' }
import phoneRuleSchema from '../../schemas/phone-rule.schema.json' with { type: 'json' }
import siteSchema from '../../schemas/site.schema.json' with { type: 'json' }
import stepSchema from '../../schemas/step.schema.json' with { type: 'json' }
import uiTextSchema from '../../schemas/ui-text.schema.json' with { type: 'json' }
import visitorRecordSchema from '../../schemas/visitor-record.schema.json' with { type: 'json' }

// ajv-formats is CommonJS; under ESM interop its function may sit on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void

const SCHEMAS: Record<string, object> = {
  'common.schema.json': commonSchema,
  'condition.schema.json': conditionSchema,
  'action.schema.json': actionSchema,
  'field.schema.json': fieldSchema,
  'step.schema.json': stepSchema,
  'funnel.schema.json': funnelSchema,
  'page.schema.json': pageSchema,
  'brand.schema.json': brandSchema,
  'site.schema.json': siteSchema,
  'ui-text.schema.json': uiTextSchema,
  // API bodies (issue 5)
  'visitor-record.schema.json': visitorRecordSchema,
  'analytics-event.schema.json': analyticsEventSchema,
  'auth-login.schema.json': authLoginSchema,
  'experiment.schema.json': experimentSchema,
  'article.schema.json': articleSchema,
  'author.schema.json': authorSchema,
  'phone-rule.schema.json': phoneRuleSchema,
  'image.schema.json': imageSchema,
  'consent.schema.json': consentSchema,
  'api-marketplace.schema.json': apiMarketplaceSchema,
  'api-get-phone-body.schema.json': apiGetPhoneBodySchema,
  'api-demand-check-body.schema.json': apiDemandCheckBodySchema,
  'api-get-phone-answer.schema.json': apiGetPhoneAnswerSchema,
  'api-ip.schema.json': apiIpSchema,
  'api-consent-record.schema.json': apiConsentRecordSchema,
  'api-error.schema.json': apiErrorSchema,
  'auth-session.schema.json': authSessionSchema,
  'client-error-report.schema.json': clientErrorReportSchema,
}

let ajv: Ajv2020 | undefined
const compiled = new Map<string, ValidateFunction>()

/**
 * Adds schemas that only the server needs (the control center's API bodies), so they stay out of
 * the browser's bundle: `registerSchemas({'api-cc-commit.schema.json': schema})`.
 */
export function registerSchemas(schemas: Record<string, object>): void {
  for (const [name, schema] of Object.entries(schemas)) {
    if (SCHEMAS[name]) continue
    SCHEMAS[name] = schema
    ajv?.addSchema(schema)
  }
}

function getAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, useDefaults: true, discriminator: true, strict: false })
    addFormats(ajv)
    for (const schema of Object.values(SCHEMAS)) ajv.addSchema(schema)
  }
  return ajv
}

/** The validator of a registered schema file, or of one of its parts: `file.schema.json#/$defs/Name`. */
export function validatorFor(schemaFile: string): ValidateFunction {
  let fn = compiled.get(schemaFile)
  if (!fn) {
    const [file, fragment] = schemaFile.split('#')
    const schema = SCHEMAS[file] as { $id: string } | undefined
    if (!schema) throw new Error(`No schema registered as ${file}`)
    fn = getAjv().getSchema(fragment ? `${schema.$id}#${fragment}` : schema.$id)
    if (!fn) throw new Error(`Schema ${schemaFile} did not compile`)
    compiled.set(schemaFile, fn)
  }
  return fn
}

export interface SchemaProblem {
  pointer: string
  /** Property the problem is about (a missing or unexpected one): the problem's pointer is `pointer/property`. */
  property?: string
  message: string
}

/** Turns ajv's errors into messages for a person, dropping the noise of oneOf branches that were never meant. */
export function describeErrors(errors: ErrorObject[]): SchemaProblem[] {
  const specific = errors.filter(
    (e) => !['oneOf', 'anyOf', 'if', 'discriminator'].includes(e.keyword) || errors.length === 1,
  )
  const keep = specific.filter((e) => {
    // A "must be array" from the list branch of an action is noise when the object branch said something.
    if (e.keyword === 'type' && e.schemaPath.includes('/oneOf/')) {
      return !specific.some(
        (o) => o !== e && o.instancePath.startsWith(e.instancePath) && o.keyword !== 'type',
      )
    }
    return true
  })
  const list = keep.length ? keep : errors
  const seen = new Set<string>()
  const out: SchemaProblem[] = []
  for (const e of list) {
    const p = describeError(e)
    const key = `${p.pointer}|${p.property ?? ''}|${p.message}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(p)
  }
  return out
}

function describeError(e: ErrorObject): SchemaProblem {
  const params = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'required':
      return {
        pointer: e.instancePath,
        property: String(params.missingProperty),
        message: `missing required property "${params.missingProperty}"`,
      }
    case 'additionalProperties':
      return {
        pointer: e.instancePath,
        property: String(params.additionalProperty),
        message: `unknown property "${params.additionalProperty}"`,
      }
    case 'enum':
      return {
        pointer: e.instancePath,
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      }
    case 'const':
      return { pointer: e.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` }
    case 'discriminator':
      return {
        pointer: e.instancePath,
        message: `"${params.tag}" is not a known type${params.tagValue ? ` (got ${JSON.stringify(params.tagValue)})` : ''}`,
      }
    default:
      return { pointer: e.instancePath, message: e.message ?? 'is invalid' }
  }
}
