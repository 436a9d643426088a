import type { PageEntry } from '../../engine/snapshot/types'
import { Faq } from '../components/Faq'
import './templates.css'

/** A heading's anchor: "How grocery benefits work" → how-grocery-benefits-work (links may use #…). */
export function anchorOf(heading: string): string {
  return heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

/** Benefits, body sections (each with its anchor) and FAQ (#faq) of a page. */
export function ContentBody({ page }: { page: PageEntry }) {
  const es = page.language === 'es'
  return (
    <div className="container content-body">
      {page.benefits.length > 0 && (
        <section className="benefits" aria-label={es ? 'Beneficios' : 'Benefits'}>
          <ul>
            {page.benefits.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </section>
      )}
      {(page.sections ?? []).length > 0 && (
        <div className="sections">
          {(page.sections ?? []).map((s) => (
            <section className="content-section" key={s.heading} id={anchorOf(s.heading)}>
              <h2>{s.heading}</h2>
              {s.body.map((p) => (
                <p key={p}>{p}</p>
              ))}
              {s.bullets && (
                <ul className="bullets">
                  {s.bullets.map((b) => (
                    <li key={b}>{b}</li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      )}
      <Faq entries={page.faq ?? []} heading={es ? 'Preguntas frecuentes' : 'Frequently asked questions'} />
    </div>
  )
}
