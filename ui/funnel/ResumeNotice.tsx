import { useEffect, useState } from 'react'
import { FUNNEL_NOTICE_COOKIE, FUNNEL_NOTICE_RESUME_INVALID } from '../../engine/constants'
import { readCookie } from '../runtime/cookies'

/** The short message of an expired or altered resume link (docs/decisions/0222), shown once after hydration. */
export function ResumeNotice({ message }: { message: string }) {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    if (readCookie(FUNNEL_NOTICE_COOKIE) !== FUNNEL_NOTICE_RESUME_INVALID) return
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve
    document.cookie = `${FUNNEL_NOTICE_COOKIE}=; Max-Age=0; Path=/`
    setShown(true)
  }, [])
  return shown ? (
    <p className="funnel-notice" role="status">
      {message}
    </p>
  ) : null
}
