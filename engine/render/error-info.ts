import { DEFAULT_ERROR_STATUS, NOT_FOUND_STATUS_MESSAGE, SERVER_ERROR_STATUS_MESSAGE } from '../constants'
import type { ErrorInfo } from './resolution'

/** Spec point 8: no route match. */
export function noRouteMatch(pathname: string): ErrorInfo {
  return { statusCode: 404, statusMessage: NOT_FOUND_STATUS_MESSAGE, message: `Page not found: ${pathname}` }
}

/** Spec point 8: a route's validity check failed. */
export function routeValidationFailed(pathname: string): ErrorInfo {
  return { statusCode: 404, statusMessage: NOT_FOUND_STATUS_MESSAGE, message: `Page Not Found: ${pathname}` }
}

/** Spec point 2: default status 500; 'Page Not Found' for 404, else 'Internal Server Error'. */
export function errorInfo(statusCode: number = DEFAULT_ERROR_STATUS, message?: string): ErrorInfo {
  const statusMessage = statusCode === 404 ? NOT_FOUND_STATUS_MESSAGE : SERVER_ERROR_STATUS_MESSAGE
  return { statusCode, statusMessage, message: message ?? statusMessage }
}

export function isNotFound(info: Pick<ErrorInfo, 'statusCode'>): boolean {
  return info.statusCode === 404
}
