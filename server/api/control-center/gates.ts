import type Router from '@koa/router'
import type { AppDeps } from '../../app-deps'

/** Placeholder: the gates routes of the control center API land here. */
export function registerGateApi(_router: Router, _deps: AppDeps): void {}
