/**
 * The one error shape of every API answer: `{ error, status, problems? }` (schemas/api-error.schema.json).
 * Handlers throw `new HttpError(…)` (Koa's ctx.throw works too); the app's error middleware writes it.
 */
import type { ApiError } from '../../schemas/generated/api-error'

export interface HttpErrorExtras {
  /** Response headers to send with the error (Retry-After, Allow…). */
  headers?: Record<string, string>
  /** Every problem found, when there are several (the first is the message). */
  problems?: string[]
  /** Close the connection after the answer: the request body was not read to its end. */
  close?: boolean
  /** Show the message on a 5xx too (a gateway's own words about its upstream; never a stack). */
  expose?: boolean
}

/** An error the client sees: a 4xx names what is wrong and where; a 5xx says only its status. */
export class HttpError extends Error {
  readonly expose: boolean
  readonly headers?: Record<string, string>
  readonly problems?: string[]
  readonly close: boolean
  constructor(
    readonly status: number,
    message: string,
    extras: HttpErrorExtras = {},
  ) {
    super(message)
    this.expose = extras.expose ?? status < 500
    this.headers = extras.headers
    this.problems = extras.problems
    this.close = extras.close ?? false
  }
}

/** The body of an error answer. */
export function errorBody(status: number, message: string, problems?: readonly string[]): ApiError {
  return problems && problems.length > 1
    ? { error: message, status, problems: [...problems] }
    : { error: message, status }
}
