import type Router from '@koa/router'
import type {
  FunnelDoc,
  FunnelEditorData,
  PageEditorData,
  StepDoc,
} from '../../../schemas/generated/cc-answers/editor'
import type { Funnel } from '../../../schemas/generated/funnel'
import type { Step } from '../../../schemas/generated/step'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import { ccRoute } from './cc-route'

const parse = (text: string | null): unknown => {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v)

/** The editors' reads beyond one file: the funnel editor's funnels, step library and usage. */
export function registerEditorApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/funnel-editor',
    ccRoute(deps, 'FunnelEditorData', async (ctx, { user, content }): Promise<FunnelEditorData> => {
      const branch = ctx.params.b
      const { head, files } = await content.queries.files(branch, user)
      const { errors } = await content.queries.errors(branch, user)
      const drafts = new Map((await content.branches.drafts(user.id, branch)).map((d) => [d.path, d.text]))
      const read = async (path: string) =>
        drafts.has(path) ? (drafts.get(path) ?? null) : content.repository.repo.readText(`${head}:${path}`)
      // The document as saved (a draft need not be valid yet: its errors say why).
      const docs = async <D extends Funnel | Step>(kind: string) => {
        const out: (Omit<FunnelDoc | StepDoc, 'doc'> & { doc: D | null })[] = []
        for (const f of files) {
          if (f.kind !== kind || f.state === 'deleted') continue
          const doc = parse(await read(f.path))
          out.push({
            id: isObject(doc) && typeof doc.id === 'string' ? doc.id : f.id,
            path: f.path,
            doc: isObject(doc) ? (doc as D) : null,
            draft: drafts.has(f.path),
            errors: errors.filter((e) => e.file === f.path),
          })
        }
        return out
      }
      const funnels = await docs<Funnel>('funnel')
      const steps = await docs<Step>('step')
      const pages = files
        .filter((f) => f.kind === 'page' && f.page && f.state !== 'deleted')
        .map((f) => ({
          key: f.page!.key,
          form: f.page!.form ?? null,
          brands: f.page!.brands,
          experiment: f.page!.experiment,
        }))
      const askedFunnel = typeof ctx.query.funnel === 'string' ? ctx.query.funnel : null
      const askedPage = typeof ctx.query.page === 'string' ? ctx.query.page : null
      let funnel: string | null = askedFunnel
      if (askedPage !== null) {
        const page = pages.find((p) => p.key === askedPage)
        if (!page) throw new HttpError(404, `no page "${askedPage}" on branch "${branch}"`)
        funnel = page.form
      }
      if (askedFunnel !== null && !funnels.some((f) => f.id === askedFunnel))
        throw new HttpError(404, `no funnel "${askedFunnel}" on branch "${branch}"`)
      return { head, funnel, funnels, steps, pages }
    }),
  )
  registerPageEditorApi(router, deps)
}

/**
 * The page editor's lookups (GET /api/cc/branches/:b/page-editor?page=): brands and funnels to pick
 * from, the page's experiments, and what names the page (Delete is refused while anything does).
 */
function registerPageEditorApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/page-editor',
    ccRoute(deps, 'PageEditorData', async (ctx, { user, content }): Promise<PageEditorData> => {
      const branch = ctx.params.b
      const key = typeof ctx.query.page === 'string' ? ctx.query.page : ''
      const { head, files } = await content.queries.files(branch, user)
      const drafts = new Map((await content.branches.drafts(user.id, branch)).map((d) => [d.path, d.text]))
      const read = async (path: string) =>
        drafts.has(path) ? (drafts.get(path) ?? null) : content.repository.repo.readText(`${head}:${path}`)
      const live = files.filter((f) => f.state !== 'deleted')
      const self = live.find((f) => f.kind === 'page' && f.page?.key === key)
      if (key && !self) throw new HttpError(404, `no page "${key}" on branch "${branch}"`)
      const route = self?.page?.path ?? `/${key}`
      const brands: PageEditorData['brands'] = []
      const experiments: PageEditorData['experiments'] = []
      const references: PageEditorData['references'] = []
      const looked = live.filter((f) => ['brand', 'experiment', 'phoneRule', 'page'].includes(f.kind))
      // Every text asked of the cat-file batch at once, not one round trip per file.
      const texts = await Promise.all(looked.map((f) => read(f.path)))
      for (const [i, f] of looked.entries()) {
        const doc = parse(texts[i])
        if (!isObject(doc)) continue
        if (f.kind === 'brand' && doc.vertical !== 'internal')
          brands.push({
            id: String(doc.id ?? f.id),
            // A name made of placeholders only (`{product}`) reads as the id.
            name:
              String(doc.name ?? '')
                .replace(/\{[^}]*\}/g, '')
                .trim() || String(doc.id ?? f.id),
          })
        if (f.kind === 'experiment' && doc.page === key) {
          experiments.push({
            id: String(doc.id ?? f.id),
            status: String(doc.status ?? 'draft'),
            description: String(doc.description ?? ''),
            variants: Array.isArray(doc.variants)
              ? doc.variants.flatMap((v) => (isObject(v) && typeof v.id === 'string' ? [v.id] : []))
              : [],
          })
          references.push({
            file: f.path,
            pointer: '/page',
            reason: `experiment ${doc.id ?? f.id} runs on this page`,
          })
        }
        if (f.kind === 'phoneRule') {
          const pages = isObject(doc.match) && Array.isArray(doc.match.pages) ? doc.match.pages : []
          const i = pages.indexOf(key)
          if (i >= 0)
            references.push({
              file: f.path,
              pointer: `/match/pages/${i}`,
              reason: `phone rule ${doc.id ?? f.id} matches this page`,
            })
        }
        if (f.kind === 'page' && f !== self && key) {
          const base = route.replace(/\/\{[^}]*\}.*$/, '') || '/'
          const links: [string, unknown][] = [
            ['/destination', doc.destination],
            ['/cta/href', isObject(doc.cta) ? doc.cta.href : undefined],
          ]
          for (const [pointer, v] of links)
            if (typeof v === 'string' && (v === base || v.split(/[?#]/)[0] === base))
              references.push({
                file: f.path,
                pointer,
                reason: `page ${f.page?.key ?? f.id} links to ${base}`,
              })
        }
      }
      brands.sort((a, b) => a.id.localeCompare(b.id))
      const funnels = live
        .filter((f) => f.kind === 'funnel')
        .map((f) => f.id)
        .sort()
      // The steps of the page's funnel by name (its URL segments), for the preview's step picker.
      const steps: string[] = []
      const form = self?.page?.form
      if (form) {
        const funnel = parse(await read(`definitions/funnels/${form}.json`))
        const refs = isObject(funnel) && Array.isArray(funnel.steps) ? funnel.steps : []
        for (const ref of refs) {
          if (!isObject(ref) || typeof ref.step !== 'string') continue
          const own =
            isObject(ref.overrides) && typeof ref.overrides.name === 'string' ? ref.overrides.name : null
          const step = own ? null : parse(await read(`definitions/steps/${ref.step}.json`))
          const name = own ?? (isObject(step) && typeof step.name === 'string' ? step.name : null)
          if (name) steps.push(name)
        }
      }
      return { head, brands, funnels, experiments, references, steps }
    }),
  )
}
