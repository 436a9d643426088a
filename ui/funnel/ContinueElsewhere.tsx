import { lazy, Suspense, useState } from 'react'
import type { ResolvedFunnel } from '../../engine/snapshot/types'

const ContinuePanel = lazy(() => import('./ContinuePanel'))

/**
 * "Continue on another device" (docs/decisions/0222): a small link under the step; the panel that
 * makes and shows the resume link is loaded when it is pressed.
 */
export function ContinueElsewhere({ text }: { text: ResolvedFunnel['text']['funnel'] }) {
  const [open, setOpen] = useState(false)
  if (open)
    return (
      <Suspense fallback={null}>
        <ContinuePanel text={text} />
      </Suspense>
    )
  return (
    <button type="button" className="link-button funnel-elsewhere" onClick={() => setOpen(true)}>
      {text.continueElsewhere}
    </button>
  )
}
