/**
 * Spanish pages stay Spanish (issue 18): from a `language: es` landing page through the funnel it
 * leads to, wrong answers included, to its thank-you page — `<html lang="es">` on every screen and
 * not one of the English UI strings (the English words of definitions/ui-text/english.json and the
 * English quiz's questions) in the text, labels, placeholders or accessible names.
 * The consent text under the phone field is another issue's (it becomes content per language) and is
 * left out of the check.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import english from '../../definitions/ui-text/english.json' with { type: 'json' }
import spanish from '../../definitions/ui-text/es.json' with { type: 'json' }
import { funnelCatalogue } from '../model/funnel-catalogue'
import { seriousViolations } from './axe'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { answerStep, currentStepName, waitForLive } from './funnel-driver'

const port = inject('port')
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await routeThirdParties(context)
})
afterAll(async () => {
  await browser?.close()
})

const catalogue = funnelCatalogue()
const spanishQuiz = catalogue.find(({ funnel }) => funnel.id === 'quiz-medicare-es')!
const englishQuiz = catalogue.find(({ funnel }) => funnel.id === 'quiz-otc')!

/** Words spelled the same in both languages. */
const SAME_IN_BOTH = ['No']

/** The English strings a Spanish visitor must never meet: UI words, messages, the English questions. */
function englishStrings(): string[] {
  const words = [...Object.values(english.funnel), ...Object.values(english.messages)]
    .filter((w) => !SAME_IN_BOTH.includes(w))
    // A template is checked by its fixed parts: "Step {step} of {total}" → "Step ", " of ".
    .flatMap((w) => w.split(/\{\w+\}/))
    .map((w) => w.trim())
    .filter((w) => w.length >= 4)
  const questions = englishQuiz.funnel.steps.flatMap((s) => [
    s.title,
    ...(s.subtitle ? [s.subtitle] : []),
    ...(s.submitLabel ? [s.submitLabel] : []),
    ...s.fields.flatMap((f) => [f.label, ...(f.hint ? [f.hint] : [])]),
  ])
  // The shell's English words that have a Spanish version.
  const shell = ['Skip to content', 'Thank you', 'Frequently asked questions']
  return [...new Set([...words, ...questions, ...shell])]
}

/** Everything a person reads or hears on the page, without the consent text (another issue's). */
function pageWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement
    for (const el of root.querySelectorAll('[data-testid="tcpa-consent"], script, style, noscript'))
      el.remove()
    const attributes = [...root.querySelectorAll('[aria-label], [placeholder], [alt], [title]')].flatMap(
      (el) => ['aria-label', 'placeholder', 'alt', 'title'].map((a) => el.getAttribute(a) ?? ''),
    )
    return [root.innerText || root.textContent || '', document.title, ...attributes].join('\n')
  })
}

async function expectSpanish(page: Page, where: string, english: string[]): Promise<void> {
  expect({ where, lang: await page.getAttribute('html', 'lang') }).toEqual({ where, lang: 'es' })
  const words = await pageWords(page)
  expect({ where, english: english.filter((e) => words.includes(e)) }).toEqual({ where, english: [] })
}

it('a Spanish landing page leads into a Spanish funnel and a Spanish thank-you page, wrong answers included', async () => {
  const english = englishStrings()
  expect(english).toEqual(expect.arrayContaining(['Continue', 'Skip this question', 'Step', 'Enter a']))
  const { page, pageErrors } = await newPage(context)
  await page.goto(brandUrl('m10', port, '/get-yours-otc-es'))
  await expectSpanish(page, '/get-yours-otc-es', english)
  await page.locator('a[href="/quiz/medicare-es"]').first().click()
  await page.waitForURL((u) => u.pathname.startsWith('/quiz/medicare-es'))

  const funnel = spanishQuiz.funnel
  const seen: string[] = []
  for (let i = 0; i < funnel.steps.length; i++) {
    await waitForLive(page)
    const name = await currentStepName(page)
    const step = funnel.steps.find((s) => s.name === name)!
    seen.push(name)
    expect(await page.getByTestId('funnel-step-count').textContent()).toBe(
      `Paso ${funnel.steps.indexOf(step) + 1} de ${funnel.steps.length}`,
    )
    // A wrong or missing answer first, so the messages are on screen too.
    const typed = step.fields.filter((f) => !['yes-no', 'choice'].includes(f.kind))
    if (typed.length) {
      for (const f of typed) await page.fill(`#field-${f.name}`, f.kind === 'zip' ? '12' : '')
      await page.locator('.funnel-submit').click()
      await expect.poll(() => page.locator('.field-error').count()).toBeGreaterThan(0)
      const messages = await page.locator('.field-error').allTextContents()
      expect(
        messages.every((m) => Object.values(spanish.messages).some((s) => m.startsWith(s.split('{')[0]))),
      ).toBe(true)
    }
    if (i === 0) {
      expect(await seriousViolations(page, { include: '.funnel' })).toEqual([])
    }
    await expectSpanish(page, name, english)
    if (process.env.SCREENSHOTS_DIR && typed.length) {
      await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/es-${name}-1280.png` })
      await page.setViewportSize({ width: 375, height: 812 })
      await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/es-${name}-375.png` })
      await page.setViewportSize({ width: 1280, height: 900 })
    }
    const before = page.url()
    await answerStep(page, funnel)
    await page.waitForURL((u) => u.toString() !== before)
  }
  expect(seen).toEqual(funnel.steps.map((s) => s.name))
  await page.waitForURL((u) => u.pathname === '/gracias')
  await expectSpanish(page, '/gracias', english)
  if (process.env.SCREENSHOTS_DIR)
    await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/es-gracias.png` })
  expect(pageErrors).toEqual([])
  await page.close()
}, 120_000)
