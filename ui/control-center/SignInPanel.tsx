import { type FormEvent, useId, useState } from 'react'
import { FormError } from './States'

/**
 * E-mail and password through `POST /api/_auth/session` (server/api/auth.ts). Shown in place of any
 * control-center screen when signed out (401), and inside the re-login dialog.
 */
export function SignInPanel({
  onSignedIn,
  heading = 'Sign in',
}: {
  onSignedIn: () => void
  heading?: string
}) {
  const id = useId()
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    setBusy(true)
    setError(null)
    try {
      const res = await fetch('/api/_auth/session', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: String(form.get('email') ?? ''),
          password: String(form.get('password') ?? ''),
        }),
      })
      const body = (await res.json().catch(() => null)) as { error?: string } | null
      if (!res.ok) {
        setError(body?.error ?? `Sign-in failed (${res.status})`)
        return
      }
      onSignedIn()
    } catch {
      setError('The server cannot be reached; try again.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="cc-sign-in stack" onSubmit={submit} aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>{heading}</h1>
      <p className="muted">Staff only. Use the e-mail and password your admin gave you.</p>
      <label className="cc-field">
        <span>E-mail</span>
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label className="cc-field">
        <span>Password</span>
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <FormError message={error} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  )
}
