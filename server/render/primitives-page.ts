/**
 * The primitives style guide (docs/decisions/0500): served only on the control-center brand at
 * /_primitives, so its code (tooltip, floating UI, panels) never reaches a public brand's bundle.
 */
import { CONTROL_CENTER_BRAND_ID, PRIMITIVES_PATH } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'

export function isPrimitivesRequest(pathname: string): boolean {
  return pathname === PRIMITIVES_PATH
}

/** Turns the control center's home resolution into the style guide's; null on any other brand. */
export function primitivesResolution(home: Resolution): Resolution | null {
  if (home.brand?.id !== CONTROL_CENTER_BRAND_ID || home.statusCode !== 200) return null
  // Not the home page's experiment: the style guide is no variant of anything.
  return {
    ...home,
    view: 'primitives',
    page: null,
    params: {},
    pathname: PRIMITIVES_PATH,
    experiment: undefined,
  }
}
