import { PAID_CLICK_ID_MIN_LENGTH, PAID_CLICK_ID_PARAMS } from '../constants'

/** Any URL parameters: a URLSearchParams or a plain record. */
export type ParamSource = URLSearchParams | Readonly<Record<string, string | undefined>>

function read(params: ParamSource, name: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(name) ?? undefined
  return params[name]
}

/**
 * Spec point 3: paid when utm_campaign has a value and one of the click ids has a value of at least
 * PAID_CLICK_ID_MIN_LENGTH characters.
 */
export function isPaidTraffic(params: ParamSource): boolean {
  const campaign = read(params, 'utm_campaign')
  if (!campaign) return false
  return PAID_CLICK_ID_PARAMS.some((name) => (read(params, name)?.length ?? 0) >= PAID_CLICK_ID_MIN_LENGTH)
}
