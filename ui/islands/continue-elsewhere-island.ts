/**
 * The panel of "Continue on another device" (docs/decisions/0222), loaded when the visitor asks for
 * it: asks the server for a signed resume link of this funnel (no answer in it) and offers to copy it
 * or e-mail it to oneself. Answers stay on the server, expiring with their bucket.
 */
import { KEYS, local, readText } from '../runtime/tracking/storage'

export async function openContinuePanel(button: HTMLButtonElement): Promise<void> {
  const label = button.textContent ?? ''
  const anonymousId = readText(local, KEYS.anonymousId)
  if (!anonymousId) return
  const res = await fetch('/api/funnel/resume-link', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ anonymousId, path: location.pathname }),
  }).catch(() => null)
  if (!res?.ok) return void (await res?.body?.cancel())
  // The server's mailto says what the link gives, for how long and where (docs/decisions/0232).
  const { url, mailto } = (await res.json()) as { url: string; mailto: string }
  const words = JSON.parse(button.dataset.words ?? '{}') as { copy?: string; copied?: string; email?: string }
  const panel = document.createElement('div')
  panel.className = 'funnel-elsewhere'
  const input = document.createElement('input')
  Object.assign(input, { className: 'field-input', readOnly: true, value: url })
  input.setAttribute('aria-label', label)
  const copy = document.createElement('button')
  Object.assign(copy, { type: 'button', className: 'link-button', textContent: words.copy ?? '' })
  copy.addEventListener('click', () =>
    navigator.clipboard?.writeText(url).then(
      () => {
        copy.textContent = words.copied ?? ''
      },
      () => {},
    ),
  )
  const mail = document.createElement('a')
  mail.className = 'link-button'
  mail.href = mailto
  mail.textContent = words.email ?? ''
  panel.append(input, copy, mail)
  button.replaceWith(panel)
}
