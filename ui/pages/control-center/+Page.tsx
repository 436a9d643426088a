import { lazy, Suspense, useEffect, useState } from 'react'
import { SignInPanel } from '../../control-center/SignInPanel'
import '../../control-center/control-center.css'
import { useResolution } from '../../shell/resolution-context'

// Everything past sign-in is loaded on demand: the signed-out panel stays small (docs/decisions/0604).
const ControlCenterApp = lazy(() => import('../../control-center/ControlCenterApp'))

/** The control center (brand `ccc`): the sign-in panel when signed out, else the app. */
export default function Page() {
  const cc = useResolution().controlCenter
  // The app renders in the browser only: the server sends the loading state (a lazy component cannot
  // finish on the server, and hydrating its boundary would be a recoverable error every time).
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  if (!cc || cc.screen === 'sign-in' || !cc.user)
    return (
      <div className="container cc-sign-in-page">
        <SignInPanel onSignedIn={() => location.reload()} />
      </div>
    )
  const loading = (
    <p className="cc-state container" role="status">
      Loading the control center…
    </p>
  )
  if (!mounted) return loading
  return (
    <Suspense fallback={loading}>
      <ControlCenterApp route={cc} />
    </Suspense>
  )
}
