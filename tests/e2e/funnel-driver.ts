/** Drives any funnel page in Chromium from its definition: answers or skips whatever step is shown. */
import type { Page } from 'playwright-core'
import { actionList } from '../../engine/funnel/run-actions'
import { invalidValue, validValue } from '../../engine/funnel/sample-values'
import type { PageEntry, ResolvedFunnel } from '../../engine/snapshot/types'
import { funnelCatalogue } from '../model/funnel-catalogue'

/** Every funnel page of the catalogue that a visitor can open (on a brand, no path parameter but the step). */
export function funnelPages(): { funnel: ResolvedFunnel; page: PageEntry }[] {
  return funnelCatalogue()
    .flatMap(({ funnel, pages }) => pages.map((page) => ({ funnel, page })))
    .filter(({ page }) => page.brands.length > 0 && !/\{(?!step\?)/.test(page.path))
}

/** The page's URL without its step: "/quiz/otc/{step?}" → "/quiz/otc". */
export const funnelBase = (p: PageEntry) => p.path.replace(/\/\{[^}]+\?\}$/, '')

/** Where a funnel may leave to: the page's destination or a go-to-page action's path. */
export function exitsOf(funnel: ResolvedFunnel, page: PageEntry): string[] {
  const paths = funnel.steps.flatMap((s) =>
    [s.onEnter, s.onSubmit].flatMap((a) =>
      actionList(a).flatMap((x) => (x.type === 'go-to-page' ? [x.path] : [])),
    ),
  )
  return [page.destination!, ...paths].map((p) => new URL(p, 'https://x').pathname)
}

/** Collects the funnel's announced events across page loads (exposeFunction survives navigation). */
/** The form island has attached to the step (docs/decisions/0524). */
export async function waitForLive(page: Page): Promise<void> {
  await page.waitForSelector('.funnel[data-live="true"]')
}

export async function currentStepName(page: Page): Promise<string> {
  return (await page.locator('.funnel-form').getAttribute('data-step'))!
}

/**
 * Answers the step on screen validly and submits it (choosing on a one-question step submits); Yes
 * to every yes-no question, in the funnel's language.
 */
export async function answerStep(page: Page, funnel: ResolvedFunnel): Promise<void> {
  const name = await currentStepName(page)
  const step = funnel.steps.find((s) => s.name === name)!
  for (const field of step.fields) {
    const value = validValue(field)
    if (field.kind === 'yes-no')
      await page
        .locator(`fieldset:has(#field-${field.name}) button`, { hasText: funnel.text.funnel.yes })
        .click()
    else if (field.kind === 'choice') {
      const label = field.options!.find((o) => o.value === value)!.label
      await page.locator(`fieldset:has(#field-${field.name}) button`, { hasText: label }).click()
    } else await page.fill(`#field-${field.name}`, String(value))
  }
  const single = step.fields.length === 1 && ['yes-no', 'choice'].includes(step.fields[0].kind)
  if (!single) await page.locator('.funnel-submit').click()
}

/**
 * Walks the funnel until the browser leaves `base` (the funnel's path); skips where allowed when `skip`
 * is set. `onStep` runs on each step once it is on screen (before it is answered).
 */
export async function completeFunnel(
  page: Page,
  funnel: ResolvedFunnel,
  base: string,
  opts: { skip?: boolean; onStep?: (name: string) => Promise<void> } = {},
): Promise<string[]> {
  const visited: string[] = []
  const left = () => !new URL(page.url()).pathname.startsWith(`${base}/`)
  for (let guard = 0; guard < funnel.steps.length * 2; guard++) {
    if (visited.length > 0 && left()) return visited
    await waitForLive(page)
    // The new step renders after the URL changes: go on once it is on screen.
    if (visited.length > 0)
      await page.waitForFunction(
        (name) => document.querySelector('.funnel-form')?.getAttribute('data-step') !== name,
        visited.at(-1),
      )
    const name = await currentStepName(page)
    visited.push(name)
    await opts.onStep?.(name)
    const step = funnel.steps.find((s) => s.name === name)!
    const before = page.url()
    if (opts.skip && step.skippable) await page.getByRole('button', { name: funnel.text.funnel.skip }).click()
    else await answerStep(page, funnel)
    await page.waitForURL((u) => u.toString() !== before)
  }
  if (left()) return visited
  throw new Error(`did not leave ${base}; visited ${visited.join(', ')}; at ${page.url()}`)
}

/** The answers `answerStep` gives that could show in a URL: every typed (text-like) value. */
export function typedAnswers(funnel: ResolvedFunnel): string[] {
  return funnel.steps.flatMap((s) =>
    s.fields.filter((f) => !['yes-no', 'choice'].includes(f.kind)).map((f) => String(validValue(f))),
  )
}

/**
 * Walks the funnel with JavaScript disabled (docs/decisions/0216): each step is a plain form posted to
 * the server, which answers 303 to the next step; until the browser leaves `base`.
 */
export async function completeFunnelWithoutJs(
  page: Page,
  funnel: ResolvedFunnel,
  base: string,
  opts: { invalidFirst?: boolean } = {},
): Promise<string[]> {
  const visited: string[] = []
  const left = () => !new URL(page.url()).pathname.startsWith(`${base}/`)
  for (let guard = 0; guard < funnel.steps.length * 2 && (visited.length === 0 || !left()); guard++) {
    const name = await currentStepName(page)
    visited.push(name)
    if (opts.invalidFirst) await postInvalidFirst(page, funnel, name)
    const before = page.url()
    await answerStep(page, funnel)
    await page.waitForURL((u) => u.toString() !== before)
  }
  if (left()) return visited
  throw new Error(`did not leave ${base}; visited ${visited.join(', ')}; at ${page.url()}`)
}

/**
 * Without JavaScript: posts the step's typed fields with wrong answers and checks the server shows the
 * step again with a message at each of them and the values kept (throws otherwise). Steps with no
 * typed field that can be wrong are left alone.
 */
async function postInvalidFirst(page: Page, funnel: ResolvedFunnel, name: string): Promise<void> {
  const step = funnel.steps.find((s) => s.name === name)!
  const typed = step.fields.filter((f) => !['yes-no', 'choice'].includes(f.kind) && invalidValue(f))
  if (!typed.length) return
  for (const f of step.fields)
    if (typed.includes(f)) await page.fill(`#field-${f.name}`, invalidValue(f)!)
    else if (!['yes-no', 'choice'].includes(f.kind))
      await page.fill(`#field-${f.name}`, String(validValue(f)))
  await Promise.all([page.waitForLoadState('load'), page.locator('.funnel-submit').click()])
  await page.waitForSelector(`#field-${typed[0].name}-error`)
  if ((await currentStepName(page)) !== name) throw new Error(`${name}: a wrong answer moved on`)
  for (const f of typed) {
    if (!(await page.locator(`#field-${f.name}-error`).isVisible()))
      throw new Error(`${name}: no message at ${f.name}`)
    const kept = await page.inputValue(`#field-${f.name}`)
    // The phone field shows the value as its mask formats it.
    const want = invalidValue(f)!
    if (kept.replace(/\D/g, '') !== want.replace(/\D/g, '') || (f.kind !== 'tel' && kept !== want))
      throw new Error(`${name}: ${f.name} kept "${kept}", posted "${want}"`)
  }
}
