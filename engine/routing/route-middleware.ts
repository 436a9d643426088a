/**
 * Route validity checks (spec point 2: "a route may define its own validity check; failure gives a 404").
 * Definitions name a check from this registry with parameters; an unknown name is refused by validation
 * with the spec's error "Unknown route middleware".
 */
import { findArticleBySlug } from '../content/articles'
import type { Snapshot } from '../snapshot/types'
import type { RouteParams } from './route-pattern'

export const UNKNOWN_ROUTE_MIDDLEWARE = 'Unknown route middleware'

export interface RouteCheckInput {
  params: RouteParams
  query: URLSearchParams
  /** Documents of the snapshot being served (articles, …), for checks that look content up. */
  documents?: Snapshot['documents']
}

export interface RouteMiddleware {
  /** Problems with the parameters the definition gave, for validation; empty when fine. */
  checkParams(params: Record<string, unknown>): string[]
  /** true when the request may be served. */
  test(params: Record<string, unknown>, input: RouteCheckInput): boolean
  /** The check reads the query string: the answer for a path may then differ by query. */
  readsQuery?: true
}

/** Whether any of a page's checks reads the query string (the page fast path then wants none). */
export function checksReadQuery(validate: readonly { middleware: string }[] | undefined): boolean {
  return (validate ?? []).some((v) => ROUTE_MIDDLEWARE[v.middleware]?.readsQuery === true)
}

function isString(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern)
    return true
  } catch {
    return false
  }
}

export const ROUTE_MIDDLEWARE: Readonly<Record<string, RouteMiddleware>> = {
  /** The query string must carry a parameter: { "name": "token" }. */
  'require-query': {
    checkParams: (p) => (isString(p.name) ? [] : ['params.name must be a query parameter name']),
    test: (p, { query }) => (query.get(String(p.name)) ?? '') !== '',
    readsQuery: true,
  },
  /** A path parameter, when present, must match a pattern: { "param": "slug", "pattern": "^[a-z0-9-]+$" }. */
  'param-pattern': {
    checkParams: (p) => {
      const errs: string[] = []
      if (!isString(p.param)) errs.push('params.param must name a route parameter')
      if (!isString(p.pattern) || !compiles(p.pattern))
        errs.push('params.pattern must be a valid regular expression')
      return errs
    },
    test: (p, { params }) => {
      const v = params[String(p.param)]
      return v === undefined || new RegExp(String(p.pattern)).test(v)
    },
  },
  /** A path parameter, when present, must be one of the listed values: { "param": "step", "values": [...] }. */
  'param-in': {
    checkParams: (p) =>
      isString(p.param) && Array.isArray(p.values) && p.values.every(isString)
        ? []
        : ['params.param and params.values (strings) are required'],
    test: (p, { params }) => {
      const v = params[String(p.param)]
      return v === undefined || (p.values as string[]).includes(v)
    },
  },
  /** A path parameter must be the slug of an article: { "param": "slug" } (the reviews catch-all). */
  'article-exists': {
    checkParams: (p) => (isString(p.param) ? [] : ['params.param must name a route parameter']),
    test: (p, { params, documents }) => {
      const slug = params[String(p.param)]
      return !!slug && !!documents && findArticleBySlug(documents, slug) !== undefined
    },
  },
}

export function runRouteChecks(
  checks: readonly { middleware: string; params?: Record<string, unknown> }[] | undefined,
  input: RouteCheckInput,
): boolean {
  for (const c of checks ?? []) {
    const mw = ROUTE_MIDDLEWARE[c.middleware]
    if (!mw) throw new Error(UNKNOWN_ROUTE_MIDDLEWARE)
    if (!mw.test(c.params ?? {}, input)) return false
  }
  return true
}
