import type Router from '@koa/router'
import type { Funnel } from '../../../schemas/generated/funnel'
import type { Step } from '../../../schemas/generated/step'
import type { EditorDoc, FunnelEditorData } from '../../../ui/control-center/api-types'
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
    ccRoute(deps, async (ctx, { user, content }): Promise<FunnelEditorData> => {
      const branch = ctx.params.b
      const { head, files } = await content.queries.files(branch, user)
      const { errors } = await content.queries.errors(branch, user)
      const drafts = new Map((await content.branches.drafts(user.id, branch)).map((d) => [d.path, d.text]))
      const read = async (path: string) =>
        drafts.has(path) ? (drafts.get(path) ?? null) : content.repository.repo.readText(`${head}:${path}`)
      const docs = async <T>(kind: string): Promise<EditorDoc<T>[]> => {
        const out: EditorDoc<T>[] = []
        for (const f of files) {
          if (f.kind !== kind || f.state === 'deleted') continue
          const doc = parse(await read(f.path))
          out.push({
            id: isObject(doc) && typeof doc.id === 'string' ? doc.id : f.id,
            path: f.path,
            doc: isObject(doc) ? (doc as T) : null,
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
}
