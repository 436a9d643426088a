/**
 * `/leads`: a person's data on request (issue 36, docs/decisions/0811). An admin names the person by
 * an e-mail address, phone number or visitor id, sees every record held about them (and can save it as
 * JSON for the person), and can erase them after confirming. Both are audited on the server.
 */
import { useState } from 'react'
import type { LeadErasure, LeadExport } from '../../../schemas/generated/cc-answers/leads'
import { useApi } from '../api'
import { useCc } from '../cc-context'
import { Dialog } from '../Dialog'
import { Empty, ErrorState, FormError, Loading, laTime, ScrollRegion } from '../States'
import { useMutation } from '../use-mutation'
import '../leads.css'

const SECTIONS: { key: keyof LeadExport; title: string }[] = [
  { key: 'answers', title: 'Answers kept' },
  { key: 'answerKeys', title: 'Browsers that may read the answers' },
  { key: 'visitors', title: 'Visitor records' },
  { key: 'events', title: 'Events' },
  { key: 'consentRecords', title: 'Consent records' },
  { key: 'marketplaceCalls', title: 'Demand checks and phone leases' },
]

export default function LeadsScreen() {
  const { may, status } = useCc()
  const api = useApi()
  const [key, setKey] = useState('')
  const [confirming, setConfirming] = useState(false)
  const lookUp = useMutation((k: string) => api<LeadExport>('POST', '/api/cc/leads/export', { key: k }))
  const erase = useMutation((k: string) => api<LeadErasure>('POST', '/api/cc/leads/erase', { key: k }), {
    onDone: (_, k) => {
      setConfirming(false)
      lookUp.run(k)
    },
  })
  if (status && !may('leads.manage'))
    return (
      <div className="cc-page">
        <h1>Leads</h1>
        <Empty>Only admins export or erase a person's data.</Empty>
      </div>
    )
  const held = lookUp.output
  const total = held ? SECTIONS.reduce((n, s) => n + (held[s.key] as unknown[]).length, 0) : 0
  // The person's copy: made when asked for, the object URL dropped once the download has it.
  const download = () => {
    if (!held) return
    const url = URL.createObjectURL(new Blob([JSON.stringify(held, null, 2)], { type: 'application/json' }))
    const a = document.createElement('a')
    a.href = url
    a.download = 'person-data.json'
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }
  return (
    <div className="cc-page fw-leads" data-testid="leads">
      <h1>Leads</h1>
      <p className="fw-leads-intro">
        A person asks what we hold about them, or to delete it. Name them by the e-mail address or phone
        number they gave, or by their visitor id.
      </p>
      <form
        className="fw-leads-form cc-row"
        onSubmit={(e) => {
          e.preventDefault()
          if (key.trim()) lookUp.run(key.trim())
        }}
      >
        <label className="cc-field fw-leads-key">
          <span>E-mail, phone or visitor id</span>
          <input
            type="search"
            value={key}
            maxLength={256}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setKey(e.target.value)}
            data-testid="leads-key"
          />
        </label>
        <button type="submit" className="button button-primary" disabled={lookUp.busy || !key.trim()}>
          Look up
        </button>
      </form>
      {lookUp.busy && <Loading what="what is held" />}
      {lookUp.error && <ErrorState message={lookUp.error} retry={lookUp.retry} />}
      {!lookUp.busy && !lookUp.error && !held && (
        <Empty>Look a person up to see every record held about them.</Empty>
      )}
      {held && !lookUp.busy && (
        <section aria-label="What is held" className="stack" data-testid="leads-result">
          {held.erased && (
            <p className="fw-leads-erased" role="status">
              Erased {laTime(held.erased.at)} (erasure {held.erased.id}). What is left holds no personal data.
            </p>
          )}
          {total === 0 ? (
            <Empty>Nothing is held for “{held.key}”.</Empty>
          ) : (
            <>
              <div className="cc-row-between">
                <p>
                  {total} records for “{held.key}”{held.matchedBy ? ` (matched by ${held.matchedBy})` : ''}.
                </p>
                <div className="cc-row">
                  <button type="button" className="button cc-small" onClick={download}>
                    Save as JSON
                  </button>
                  {held.matchedBy && (
                    <button
                      type="button"
                      className="button button-danger"
                      onClick={() => setConfirming(true)}
                    >
                      Erase…
                    </button>
                  )}
                </div>
              </div>
              {SECTIONS.map((s) => {
                const rows = held[s.key] as unknown[]
                return (
                  <details key={s.key} className="fw-leads-section">
                    <summary>
                      {s.title} ({rows.length})
                    </summary>
                    {rows.length === 0 ? (
                      <p className="cc-empty">None.</p>
                    ) : (
                      <ol>
                        {rows.map((r, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: rows are shown as read, never reordered
                          <li key={i}>
                            <ScrollRegion label={`${s.title} ${i + 1}`} className="fw-leads-row">
                              <pre>{JSON.stringify(r, null, 2)}</pre>
                            </ScrollRegion>
                          </li>
                        ))}
                      </ol>
                    )}
                  </details>
                )
              })}
            </>
          )}
        </section>
      )}
      <Dialog open={confirming} title="Erase this person's data?" onClose={() => setConfirming(false)}>
        <div className="stack">
          <p>
            Their answers, visitor records and answer keys are deleted; the personal fields of their events,
            consent records and phone leases are redacted for good. The proof of consent (text, time, page,
            revision) stays, without who gave it. This cannot be undone.
          </p>
          <FormError message={erase.error} />
          <div className="cc-row">
            <button
              type="button"
              className="button button-danger"
              disabled={erase.busy}
              onClick={() => held && erase.run(held.key)}
              data-testid="leads-erase"
            >
              {erase.busy ? 'Erasing…' : 'Erase'}
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      </Dialog>
    </div>
  )
}
