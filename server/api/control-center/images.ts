import type Router from '@koa/router'
import type { AppDeps } from '../../app-deps'

/** Placeholder: the images routes of the control center API land here. */
export function registerImageApi(_router: Router, _deps: AppDeps): void {}
