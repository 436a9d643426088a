import { createContext, useContext } from 'react'
import type { ControlCenterRoute } from '../../engine/render/control-center-routes'
import type { CcStatus } from '../../schemas/generated/cc-answers/branches'

export interface CcContextValue {
  route: ControlCenterRoute
  /** The branch the screen is keyed by (screens under a branch, and /branches/{branch}). */
  branch: string | null
  status: CcStatus | null
  /** Whether the signed-in user may (server's `can()`, from /api/cc/status; false until known). */
  may(action: string): boolean
  /** Ask for "Create a branch to save" (saving on live). */
  offerBranch(): void
  /** Tell the shell the branch's drafts or problems changed (tray and panel reload). */
  changed(): void
  /** Bumped by changed(). */
  revision: number
}

export const CcContext = createContext<CcContextValue | null>(null)

export function useCc(): CcContextValue {
  const c = useContext(CcContext)
  if (!c) throw new Error('useCc() used outside the control center')
  return c
}
