import type Router from '@koa/router'
import { pagesByBrand, phoneRuleCoverage } from '../../../engine/phone/phone-rule-coverage'
import type { PhoneRuleRow } from '../../../schemas/generated/cc-answers/phone-rules'
import type { PhoneRule } from '../../../schemas/generated/phone-rule'
import type { AppDeps } from '../../app-deps'
import { ccRoute } from './cc-route'

const parse = (text: string | null): unknown => {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Enough of a rule for coverage and the simulator: the engine reads only these fields. */
function looksLikeRule(v: unknown): v is PhoneRule {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false
  const r = v as Record<string, unknown>
  const list = (x: unknown) => x === undefined || (Array.isArray(x) && x.every((s) => typeof s === 'string'))
  const m = r.match as Record<string, unknown> | undefined
  return (
    typeof r.id === 'string' &&
    typeof r.brand === 'string' &&
    (m === undefined || (!!m && typeof m === 'object' && list(m.pages) && list(m.utmSource) && list(m.afid)))
  )
}

/**
 * The phone-rules screen's data: every rule of the branch with my drafts laid over, the brands and the
 * pages served on each, and the coverage (rules that can never win, pages falling through to the
 * default). The "which rule wins?" simulator runs engine/phone in the browser on these rules.
 */
export function registerPhoneRuleApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/phone-rules',
    ccRoute(deps, 'CcPhoneRules', async (ctx, { user, content }) => {
      const branch = ctx.params.b
      const { head, files } = await content.queries.files(branch, user)
      const { errors } = await content.queries.errors(branch, user)
      const drafts = new Map((await content.branches.drafts(user.id, branch)).map((d) => [d.path, d.text]))
      const read = async (path: string) =>
        drafts.has(path) ? (drafts.get(path) ?? null) : content.repository.repo.readText(`${head}:${path}`)
      const rules: PhoneRuleRow[] = []
      const brands: { id: string; name: string; public: boolean }[] = []
      for (const f of files) {
        if (f.state === 'deleted') continue
        if (f.kind === 'phoneRule') {
          const doc = parse(await read(f.path))
          rules.push({
            ...f,
            rule: doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as PhoneRule) : null,
            errors: errors.filter((e) => e.file === f.path),
          })
        } else if (f.kind === 'brand') {
          const doc = parse(await read(f.path)) as { id?: unknown; name?: unknown; vertical?: unknown } | null
          const id = typeof doc?.id === 'string' ? doc.id : f.id
          brands.push({
            id,
            name: typeof doc?.name === 'string' ? doc.name : id,
            public: doc?.vertical !== 'internal',
          })
        }
      }
      const pages = pagesByBrand(
        files.filter((f) => f.kind === 'page' && f.page && f.state !== 'deleted').map((f) => f.page!),
      )
      const valid = rules.map((r) => r.rule).filter(looksLikeRule)
      return {
        head,
        rules,
        brands,
        pages: Object.fromEntries(pages),
        coverage: phoneRuleCoverage(valid, pages),
      }
    }),
  )
}
