import { type ComponentType, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ControlCenterRoute, ControlCenterScreen } from '../../engine/render/control-center-routes'
import type { CcStatus } from '../../schemas/generated/cc-answers/branches'
import { ApiContext, createApi } from './api'
import { carryTo, dropPending } from './carried-text'
import { CcContext, type CcContextValue } from './cc-context'
import { Dialog } from './Dialog'
import { ControlCenterHeader } from './Header'
import { LiveHealthBanner } from './LiveHealthBanner'
import { NewBranchDialog } from './NewBranchDialog'
import { SignInPanel } from './SignInPanel'
import { Loading } from './States'
import { useResourceWith } from './use-resource'

const BranchesScreen = lazy(() => import('./screens/BranchesScreen'))
const BranchScreen = lazy(() => import('./screens/BranchScreen'))
const PagesScreen = lazy(() => import('./screens/PagesScreen'))
const PageScreen = lazy(() => import('./screens/PageScreen'))
const ExperimentsScreen = lazy(() => import('./screens/ExperimentsScreen'))
const ExperimentScreen = lazy(() => import('./screens/ExperimentScreen'))
const ContentFactoryScreen = lazy(() => import('./screens/ContentFactoryScreen'))
const PhoneRulesScreen = lazy(() => import('./screens/PhoneRulesScreen'))
const ImagesScreen = lazy(() => import('./screens/ImagesScreen'))
const ArticlesScreen = lazy(() => import('./screens/ArticlesScreen'))
const FunnelDropoffScreen = lazy(() => import('./screens/FunnelDropoffScreen'))
const LeadsScreen = lazy(() => import('./screens/LeadsScreen'))

const SCREENS: Record<ControlCenterScreen, ComponentType> = {
  branches: BranchesScreen,
  branch: BranchScreen,
  pages: PagesScreen,
  page: PageScreen,
  articles: ArticlesScreen,
  'content-factory': ContentFactoryScreen,
  'content-factory-authors': ContentFactoryScreen,
  'content-factory-runs': ContentFactoryScreen,
  'content-factory-run': ContentFactoryScreen,
  experiments: ExperimentsScreen,
  experiment: ExperimentScreen,
  'funnel-dropoff': FunnelDropoffScreen,
  images: ImagesScreen,
  image: ImagesScreen,
  'phone-rules': PhoneRulesScreen,
  leads: LeadsScreen,
}

/** The signed-in control center: shell plus the screen of this URL (code-split per screen). */
export default function ControlCenterApp({ route }: { route: ControlCenterRoute }) {
  const waiting = useRef<(() => void)[]>([])
  const [reloginOpen, setReloginOpen] = useState(false)
  // A 401 from any call opens the re-login dialog; the call is retried once signed in again.
  const api = useMemo(
    () =>
      createApi(
        () =>
          new Promise<void>((resolve) => {
            waiting.current.push(resolve)
            setReloginOpen(true)
          }),
      ),
    [],
  )
  const status = useResourceWith<CcStatus>(api, '/api/cc/status')
  const [revision, setRevision] = useState(0)
  const [offerOpen, setOfferOpen] = useState(false)
  // Text typed on live waits only while its screen is open: on another screen or branch (a new page
  // load; a branch just created has taken it already) it is dropped, never carried later (issue 37).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per screen and branch
  useEffect(() => dropPending(), [route.screen, route.branch])
  const changed = useCallback(() => setRevision((r) => r + 1), [])
  const ctx: CcContextValue = useMemo(
    () => ({
      route,
      branch: route.branch,
      status: status.data,
      may: (action: string) => status.data?.permissions[action] === true,
      offerBranch: () => setOfferOpen(true),
      changed,
      revision,
    }),
    [route, status.data, changed, revision],
  )
  const Screen = route.screen === 'sign-in' ? null : SCREENS[route.screen]
  return (
    <ApiContext.Provider value={api}>
      <CcContext.Provider value={ctx}>
        <div className="cc-app">
          <ControlCenterHeader />
          <LiveHealthBanner />
          {status.data?.contentSource === 'worktree' && (
            <p className="cc-banner" role="note">
              Publishing does not change this dev site: it serves definitions/ from the working tree.
            </p>
          )}
          {status.error && (
            <p className="cc-banner cc-banner-error" role="alert">
              Could not load your permissions: {status.error}
            </p>
          )}
          <div className="cc-screen">
            <Suspense fallback={<Loading what="the screen" />}>
              {/* The branch keys the screen: switching branch drops every stale form state (spec point 2). */}
              {Screen && <Screen key={route.branch ?? route.screen} />}
            </Suspense>
          </div>
        </div>
        <Dialog
          open={reloginOpen}
          title="Your session ended"
          onClose={() => {
            /* Signing in is the way out: closing would leave calls waiting. */
          }}
        >
          <p>
            Sign in again to continue. Nothing you typed is lost: it is kept in this browser until it is
            saved.
          </p>
          <SignInPanel
            heading="Sign in again"
            onSignedIn={() => {
              setReloginOpen(false)
              for (const resolve of waiting.current.splice(0)) resolve()
            }}
          />
        </Dialog>
        <NewBranchDialog
          open={offerOpen}
          title="Create a branch to save"
          intro="Live is read-only. Create a branch to save your change; it opens there with your text kept."
          onClose={() => {
            // Cancelled: what was typed on live is dropped, never kept for some other branch.
            dropPending()
            setOfferOpen(false)
          }}
          onCreated={(name) => {
            carryTo(name)
            const url = new URL(location.href)
            url.searchParams.set('branch', name)
            location.assign(url.pathname + url.search)
          }}
        />
      </CcContext.Provider>
    </ApiContext.Provider>
  )
}
