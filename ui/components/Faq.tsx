import { useId, useState } from 'react'
import type { FaqEntry } from '../../schemas/generated/page'

/** Questions and answers as a disclosure list (keyboard and screen-reader friendly). */
export function Faq({ entries, heading }: { entries: FaqEntry[]; heading: string }) {
  const [open, setOpen] = useState<number | null>(null)
  const id = useId()
  if (!entries.length) return null
  return (
    <section className="faq" id="faq" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{heading}</h2>
      {entries.map((e, i) => {
        const expanded = open === i
        return (
          <div className="faq-item" key={e.question}>
            <h3>
              <button
                type="button"
                className="faq-question"
                aria-expanded={expanded}
                aria-controls={`${id}-a${i}`}
                onClick={() => setOpen(expanded ? null : i)}
              >
                {e.question}
              </button>
            </h3>
            <div id={`${id}-a${i}`} className="faq-answer" hidden={!expanded}>
              <p>{e.answer}</p>
            </div>
          </div>
        )
      })}
    </section>
  )
}
