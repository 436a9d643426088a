import type Router from '@koa/router'
import type { AppDeps } from '../app'
import { registerClientErrors } from './client-errors'

/**
 * Registers every /api route. Each feature adds one line here and keeps its handlers in its own file
 * (server/api/<feature>.ts).
 */
export function registerApis(router: Router, deps: AppDeps): void {
  void router
  void deps
  registerClientErrors(router)
}
