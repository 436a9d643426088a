import type { PageEntry } from '../../engine/snapshot/types'
import { Faq } from '../components/Faq'
import './templates.css'

/** Benefits, body sections and FAQ of a page. */
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
            <section className="content-section" key={s.heading}>
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
