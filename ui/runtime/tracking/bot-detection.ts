import type { EventBotResult } from '../../../schemas/generated/analytics-event'

/**
 * Bot detection at startup (spec point 4) with @fingerprintjs/botd from the npm package (its CDN is
 * never used, and its 0.1 % monitoring request is off). Errors are ignored: the result is then null,
 * as it is while detection runs.
 */
export async function detectBot(): Promise<EventBotResult> {
  try {
    const { load } = await import('@fingerprintjs/botd')
    const detector = await load({ monitoring: false })
    const result = detector.detect()
    return result.bot ? { bot: true, kind: String(result.botKind) } : { bot: false }
  } catch {
    return null
  }
}
