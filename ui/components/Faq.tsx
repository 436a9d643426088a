import { useId } from 'react'
import type { FaqEntry } from '../../schemas/generated/page'

/**
 * Questions and answers as a disclosure list: `<details>` elements sharing a `name`, so the browser
 * opens one answer at a time without any script (static pages do not hydrate; docs/decisions/0520).
 */
export function Faq({ entries, heading }: { entries: FaqEntry[]; heading: string }) {
  const id = useId()
  if (!entries.length) return null
  return (
    <section className="faq" id="faq" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{heading}</h2>
      {entries.map((e) => (
        <details className="faq-item" name={`${id}-faq`} key={e.question}>
          <summary className="faq-question">
            <h3>{e.question}</h3>
          </summary>
          <div className="faq-answer">
            <p>{e.answer}</p>
          </div>
        </details>
      ))}
    </section>
  )
}
