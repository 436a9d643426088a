/**
 * The funnel step's form, enhanced in plain DOM (docs/decisions/0524). The server renders every step
 * as a form that posts, runs the funnel machine and holds the answers; this island attaches to the
 * inputs already on the page and never re-renders or clears them. It adds:
 * - as-you-type checks with the engine's own field validators, and the phone mask;
 * - in-place step changes: a submit goes by `fetch` (the same POST the form makes), the server's answer
 *   (the next step after its 303, or this step with errors) is read and only the form is swapped, the
 *   progress bar animating to the new step (CSS transition, 300 ms after 10 ms: decision 0204);
 *   Back and Forward fetch the step of the URL the same way;
 * - the answers in the inputs, and the fields a step posted, handed to the phone lease: a posted quote
 *   change shortens its expiry, so the browser shows the number the server leased for it (0235).
 * Listeners sit on the form's container, so a swapped-in step is enhanced with no new wiring.
 */

import { maskPhone } from '../../engine/funnel/phone-mask'
import { POSTED_ACTION_FIELD } from '../../engine/funnel/posted-fields'
import { fillText, validateField } from '../../engine/funnel/validate-field'
import type { FormValues } from '../../engine/runtime-contracts'
import type { ResolvedFunnel, ResolvedStep } from '../../engine/snapshot/types'
import type { Field } from '../../schemas/generated/field'
import { startLoading } from './loading-bar-island'

export interface FunnelFormHooks {
  /** Answers in the inputs (as typed: they are the server's only once posted). */
  values(values: FormValues): void
  /** Puts a URL in the address bar; false when the page is being loaded anew instead (build check). */
  navigate(url: string): boolean
  /** A step was swapped in: after a post, `posted` names the fields it sent. */
  stepShown(posted: (keyof FormValues)[]): void
}

const fieldNamed = (step: ResolvedStep | undefined, name: string) => step?.fields.find((f) => f.name === name)

/** Where the funnel's steps live: the URL path without its step. */
const basePathOf = (path: string, stepNames: string[]) => {
  const parts = path.replace(/\/+$/, '').split('/')
  return stepNames.includes(decodeURIComponent(parts.at(-1) ?? ''))
    ? parts.slice(0, -1).join('/')
    : parts.join('/')
}

/** The value a field holds in the form: text as typed, a choice as the pressed button (or posted input). */
function fieldValue(
  form: HTMLFormElement,
  field: Field,
  submitter: HTMLElement | null,
): FormValues[keyof FormValues] {
  if (field.kind !== 'yes-no' && field.kind !== 'choice') {
    const input = form.elements.namedItem(field.name)
    return input instanceof HTMLInputElement ? input.value : undefined
  }
  const chosen =
    submitter instanceof HTMLButtonElement && submitter.name === field.name
      ? submitter
      : form.querySelector<HTMLButtonElement>(`button[name="${field.name}"][aria-pressed="true"]`)
  const raw =
    chosen?.value ?? form.querySelector<HTMLInputElement>(`input[type=hidden][name="${field.name}"]`)?.value
  if (raw === undefined) return undefined
  return field.kind === 'yes-no' ? raw === 'true' : raw
}

/** Shows (or clears) a field's message in place, as the server renders it (FieldMessages.tsx). */
function showError(form: HTMLFormElement, field: Field, message: string | undefined): void {
  const id = `field-${field.name}`
  const first = form.querySelector<HTMLElement>(`#${id}`)
  const box = first?.closest<HTMLElement>('.field')
  if (!box) return
  const marked = box.tagName === 'FIELDSET' ? box : (first as HTMLElement)
  box.classList.toggle('field-invalid', !!message)
  let p = box.querySelector<HTMLElement>(`#${id}-error`)
  if (message) {
    if (!p) {
      p = document.createElement('p')
      p.id = `${id}-error`
      p.className = 'field-error'
      box.append(p)
    }
    if (p.textContent !== message) p.textContent = message
    marked.setAttribute('aria-invalid', 'true')
  } else {
    p?.remove()
    marked.removeAttribute('aria-invalid')
  }
  const described = [field.hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ')
  if (described) marked.setAttribute('aria-describedby', described)
  else marked.removeAttribute('aria-describedby')
}

/** Focuses the first field with a message (its first choice in a fieldset). */
function focusFirstInvalid(form: HTMLFormElement): void {
  const bad = form.querySelector<HTMLElement>('[aria-invalid="true"]')
  ;(bad?.matches('fieldset') ? bad.querySelector('button') : bad)?.focus()
}

/** Enhances the form inside `box` (the hero's aside); returns the function that detaches it. */
export function mountFunnelForm(
  box: HTMLElement,
  funnel: ResolvedFunnel,
  hooks: FunnelFormHooks,
): () => void {
  const names = funnel.steps.map((s) => s.name)
  const basePath = basePathOf(location.pathname, names)
  const messages = funnel.text.messages
  const words = funnel.text.funnel
  const current = () => box.querySelector<HTMLFormElement>('form.funnel-form')
  const stepOf = (form: HTMLFormElement) => funnel.steps.find((s) => s.name === form.dataset.step)
  let busy = false
  /** The path of the step shown: Back and Forward to another one fetch it (a hash change does not). */
  let shownPath = location.pathname
  /** Set to let one submit through to the browser (a failed fetch falls back to the plain post). */
  let native = false

  const announce = (form: HTMLFormElement, errors: [Field, string][]) => {
    const live = form.querySelector<HTMLElement>('[role="status"][aria-live]')
    if (live)
      live.textContent = errors.length
        ? fillText(errors.length === 1 ? words.checkAnswer : words.checkAnswers, {
            messages: errors.map(([, m]) => m).join('. '),
          })
        : ''
  }

  const onInput = (e: Event) => {
    const input = e.target
    if (!(input instanceof HTMLInputElement)) return
    const form = input.form
    const field = form && fieldNamed(stepOf(form), input.name)
    if (!form || !field) return
    // The mask and the ZIP's digits rewrite the value only when they change it: what was typed stays.
    const v = input.value
    const clean =
      field.kind === 'tel' ? maskPhone(v) : field.kind === 'zip' ? v.replace(/\D/g, '').slice(0, 5) : v
    if (clean !== v) input.value = clean
    // A field showing a message is checked again as it is typed, so the message goes once it is right.
    if (input.getAttribute('aria-invalid') === 'true')
      showError(form, field, validateField(field, clean, messages))
    hooks.values({ [field.name]: clean })
  }

  const onLeave = (e: Event) => {
    const input = e.target
    if (!(input instanceof HTMLInputElement) || !input.value) return
    const form = input.form
    const field = form && fieldNamed(stepOf(form), input.name)
    if (form && field) showError(form, field, validateField(field, input.value, messages))
  }

  /** A choice of a step with several questions is a button: it is kept in a hidden input. */
  const onClick = (e: Event) => {
    const button = (e.target as Element).closest?.('button.choice')
    if (!(button instanceof HTMLButtonElement) || button.type !== 'button' || !button.form) return
    for (const b of button.form.querySelectorAll<HTMLButtonElement>(`button.choice[name="${button.name}"]`)) {
      b.setAttribute('aria-pressed', String(b === button))
      b.classList.toggle('choice-checked', b === button)
    }
    let kept = button.form.querySelector<HTMLInputElement>(`input[type=hidden][name="${button.name}"]`)
    if (!kept) {
      kept = document.createElement('input')
      kept.type = 'hidden'
      kept.name = button.name
      button.form.append(kept)
    }
    kept.value = button.value
  }

  /** Puts the step of a fetched page in place of the current one; false when it has none. */
  const swap = (html: string, url: string, moved: boolean, posted: (keyof FormValues)[]): boolean => {
    const doc = new DOMParser().parseFromString(html, 'text/html')
    const next = doc.querySelector<HTMLFormElement>('[data-island="form"] form.funnel-form')
    const form = current()
    if (!next || !form) return false
    const step = stepOf(form)
    if (next.dataset.step === form.dataset.step && step) {
      // The same step again (errors): its messages move into the inputs already there, kept as typed.
      const errors: [Field, string][] = []
      for (const field of step.fields) {
        const message = next.querySelector(`#field-${field.name}-error`)?.textContent ?? undefined
        showError(form, field, message)
        if (message) errors.push([field, message])
      }
      announce(form, errors)
      focusFirstInvalid(form)
      return true
    }
    form.replaceWith(document.importNode(next, true))
    // The bar keeps its element, so its transform animates to the new step (decision 0204).
    const fill = box.querySelector<HTMLElement>('.funnel-progress-fill')
    const nextFill = doc.querySelector<HTMLElement>('[data-island="form"] .funnel-progress-fill')
    if (fill && nextFill) fill.style.transform = nextFill.style.transform
    const bar = box.querySelector('[role="progressbar"]')
    const nextBar = doc.querySelector('[data-island="form"] [role="progressbar"]')
    bar?.setAttribute('aria-valuenow', nextBar?.getAttribute('aria-valuenow') ?? '0')
    const label = box.querySelector('[data-testid="funnel-step-count"]')
    if (label) label.textContent = doc.querySelector('[data-testid="funnel-step-count"]')?.textContent ?? ''
    const elsewhere = box.querySelector<HTMLElement>('[data-island="continue-elsewhere"]')
    const nextElsewhere = doc.querySelector<HTMLElement>('[data-island="continue-elsewhere"]')
    if (nextElsewhere && !elsewhere) current()?.after(document.importNode(nextElsewhere, true))
    if (!nextElsewhere) elsewhere?.remove()
    document.title = doc.title
    if (moved && url !== location.href && !hooks.navigate(url)) return true
    shownPath = location.pathname
    window.scrollTo({ top: 0 })
    box.querySelector<HTMLElement>('#funnel-question')?.focus()
    hooks.stepShown(posted)
    return true
  }

  /** Fetches a step (a posted form, or the URL Back/Forward went to) and shows it. */
  const go = async (
    request: () => Promise<Response>,
    moved: boolean,
    fallback: () => void,
    posted: (keyof FormValues)[] = [],
  ) => {
    busy = true
    const form = current()
    form?.setAttribute('aria-busy', 'true')
    const done = startLoading()
    try {
      const res = await request()
      const to = new URL(res.url)
      const inFunnel = to.origin === location.origin && basePathOf(to.pathname, names) === basePath
      if (!inFunnel || !res.headers.get('content-type')?.includes('text/html')) {
        // Out of the funnel (the thank-you page) or an answer that is no step: the browser goes there.
        await res.body?.cancel()
        if (res.ok || res.redirected) location.assign(res.url)
        else fallback()
        return
      }
      if (!swap(await res.text(), res.url, moved, posted)) location.assign(res.url)
    } catch {
      fallback()
    } finally {
      busy = false
      form?.removeAttribute('aria-busy')
      done()
    }
  }

  const onSubmit = (e: SubmitEvent) => {
    const form = e.target
    if (!(form instanceof HTMLFormElement) || native) return
    const step = stepOf(form)
    if (!step) return
    e.preventDefault()
    if (busy) return
    const submitter = e.submitter instanceof HTMLElement ? e.submitter : null
    const action = submitter instanceof HTMLButtonElement && submitter.name === POSTED_ACTION_FIELD
    if (!action) {
      const errors: [Field, string][] = []
      for (const field of step.fields) {
        const message = validateField(field, fieldValue(form, field, submitter), messages)
        showError(form, field, message)
        if (message) errors.push([field, message])
      }
      announce(form, errors)
      if (errors.length) return focusFirstInvalid(form)
    }
    const body = new URLSearchParams()
    for (const [k, v] of new FormData(form, submitter)) if (typeof v === 'string') body.append(k, v)
    void go(
      () => fetch(location.href, { method: 'POST', body, credentials: 'same-origin' }),
      true,
      () => {
        // The network failed: the browser posts the form itself (the plain path always works).
        native = true
        form.requestSubmit(submitter)
      },
      step.fields.filter((f) => body.has(f.name)).map((f) => f.name),
    )
  }

  const onPop = () => {
    const path = location.pathname
    if (path === shownPath) return
    if (basePathOf(path, names) !== basePath) return location.reload()
    void go(
      () => fetch(location.href, { credentials: 'same-origin' }),
      false,
      () => location.reload(),
    )
  }

  // The answers the server rendered into the step are known from the start.
  const form = current()
  const step = form && stepOf(form)
  if (form && step) {
    const held: FormValues = {}
    for (const field of step.fields) {
      const v = fieldValue(form, field, null)
      if (v !== undefined && v !== '') Object.assign(held, { [field.name]: v })
    }
    hooks.values(held)
  }
  box.addEventListener('input', onInput)
  box.addEventListener('focusout', onLeave)
  box.addEventListener('click', onClick)
  box.addEventListener('submit', onSubmit)
  window.addEventListener('popstate', onPop)
  // Enhanced from now on (tests and tools wait on it, as on `html[data-hydrated]`).
  box.querySelector('.funnel')?.setAttribute('data-live', 'true')
  return () => {
    box.removeEventListener('input', onInput)
    box.removeEventListener('focusout', onLeave)
    box.removeEventListener('click', onClick)
    box.removeEventListener('submit', onSubmit)
    window.removeEventListener('popstate', onPop)
  }
}
