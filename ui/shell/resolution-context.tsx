import { createContext, useContext } from 'react'
import type { Resolution } from '../../engine/render/resolution'

export const ResolutionContext = createContext<Resolution | null>(null)

/** The server's resolution of this request: brand, page, params, site. */
export function useResolution(): Resolution {
  const r = useContext(ResolutionContext)
  if (!r) throw new Error('useResolution() used outside the page shell')
  return r
}
