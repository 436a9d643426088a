/**
 * Failpoints (docs/decisions/0612): named points where a test can make the server die as a crash
 * would, to prove that a step of several writes leaves consistent state. Honoured only when
 * NODE_ENV is `test` and FW_FAILPOINTS lists the point (comma-separated); never in production.
 */

/** Every failpoint, named once. */
export const FAILPOINTS = {
  /** The publish intent is committed; live has not moved. */
  publishAfterIntent: 'publish:after-intent',
  /** Live (the published ref, and the remote's) has moved; the publication and audit rows are not written. */
  publishAfterRef: 'publish:after-ref',
} as const

export type Failpoint = (typeof FAILPOINTS)[keyof typeof FAILPOINTS]

/** The failpoints this process honours: none unless NODE_ENV=test. */
export function armedFailpoints(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> {
  if (env.NODE_ENV !== 'test' || !env.FW_FAILPOINTS) return new Set()
  return new Set(env.FW_FAILPOINTS.split(',').map((s) => s.trim()))
}

const armed = armedFailpoints()

/** Kills this process on the spot (SIGKILL: no cleanup, as a crash) when the failpoint is armed. */
export function failpoint(name: Failpoint): void {
  if (armed.has(name)) process.kill(process.pid, 'SIGKILL')
}
