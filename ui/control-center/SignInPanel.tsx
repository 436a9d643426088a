import { type FormEvent, useId } from 'react'
import { FormError } from './States'
import { useMutation } from './use-mutation'

/** `POST /api/_auth/session`; a refusal or an unreachable server is an error with a message to show. */
async function signInRequest(credentials: { email: string; password: string }): Promise<void> {
  let res: Response
  try {
    res = await fetch('/api/_auth/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(credentials),
    })
  } catch {
    throw new Error('The server cannot be reached; try again.')
  }
  const body = (await res.json().catch(() => null)) as { error?: string } | null
  if (!res.ok) throw new Error(body?.error ?? `Sign-in failed (${res.status})`)
}

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
  const signIn = useMutation(signInRequest, { onDone: onSignedIn })
  const { busy, error } = signIn
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    signIn.run({ email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') })
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
