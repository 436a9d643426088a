import type Router from '@koa/router'
import type { AppDeps } from '../../app-deps'

/** Placeholder: the editor routes of the control center API land here. */
export function registerEditorApi(_router: Router, _deps: AppDeps): void {}
