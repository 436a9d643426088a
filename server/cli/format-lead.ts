import type { LeadEntry, LeadStory } from '../store/lead-store'

const time = (iso: string) => iso.replace('T', ' ').replace(/Z$/, '')

/**
 * One lead's story for a compliance reviewer: who, which content revisions, then every page seen,
 * step submitted, consent given, demand check and phone lease, in time order, and the number shown.
 */
export function formatLead(story: LeadStory): string {
  const erased = story.erased
    ? `Erased: ${time(story.erased.at)} (erasure ${story.erased.id}); what is left holds no personal data.`
    : null
  if (!story.matchedBy && erased) return `Lead ${story.key}\n${erased}`
  if (!story.matchedBy)
    return `No lead found for "${story.key}" (a session id, anonymous or user id, or a phone number).`
  const out: string[] = [
    `Lead ${story.key} (matched by ${story.matchedBy})`,
    ...(erased ? [`  ${erased}`] : []),
    `  sessions:  ${story.sessionIds.join(', ')}`,
    `  visitor:   anonymous ${story.anonymousIds.join(', ')}${story.userIds.length ? `; user ${story.userIds.join(', ')}` : ''}`,
    '  content revisions (re-render with: git checkout <commit>, or the snapshot id in the content history):',
    ...story.revisions.map(
      (r) =>
        `    snapshot ${r.snapshotId}  ${r.commit ? `commit ${r.commit}` : 'no published commit recorded (working tree)'}`,
    ),
    '',
  ]
  let shown: string | null = null
  let defaultNumber: string | null = null
  for (const entry of story.entries) {
    out.push(...formatEntry(entry))
    if (entry.kind === 'marketplace' && entry.call.kind === 'get-phone' && entry.call.phone)
      shown = `${entry.call.phone} (leased ${time(entry.call.at)}${entry.call.expires_at ? `, until ${time(entry.call.expires_at)}` : ''})`
    if (entry.kind === 'event') {
      const n = (entry.event.body.properties.phoneRule as { defaultNumber?: string | null } | null)
        ?.defaultNumber
      if (n) defaultNumber = n
    }
  }
  out.push('')
  const recorded = story.numberShown
  out.push(
    recorded
      ? `Number shown: ${recorded.number ? `${recorded.number} (${recorded.source === 'leased' ? 'leased' : "the phone rule's default"}; shown ${time(recorded.at)})` : `none (shown ${time(recorded.at)})`}`
      : `Number shown: ${shown ?? (defaultNumber ? `${defaultNumber} (the phone rule's default; no lease)` : 'none recorded')}`,
  )
  return out.join('\n')
}

function formatEntry(entry: LeadEntry): string[] {
  const at = time(entry.at)
  if (entry.kind === 'event') {
    const e = entry.event
    const p = e.body.properties as Record<string, unknown> & {
      page?: { stepName?: string | null } | null
      url?: { full?: string }
      revision?: string
    }
    const rev = p.revision ? `rev ${p.revision}` : 'rev ?'
    if (e.type === 'page')
      return [
        `${at}  page seen       ${e.name}${p.page?.stepName ? ` / ${p.page.stepName}` : ''}  ${rev}  ${p.url?.full ?? ''}`,
      ]
    if (e.name === 'formStepSubmitted') {
      const data = (p.data ?? {}) as Record<string, unknown>
      return [
        `${at}  step submitted  ${p.formVersion ?? ''} step ${p.stepNumber ?? '?'} "${p.stepName ?? ''}"  fields: ${Object.keys(data).join(', ') || '-'}  ${rev}`,
      ]
    }
    return [`${at}  event           ${e.name}  ${rev}`]
  }
  if (entry.kind === 'consent') {
    const r = entry.record
    return [
      `${at}  CONSENT GIVEN   ${r.form_version} step ${r.step_number} "${r.step_name}" on ${r.brand_id}/${r.page_key}`,
      `      version ${r.version}  sha256 ${r.text_sha256}`,
      `      seller "${r.seller}"  button "${r.button_label}"  fields: ${r.fields.join(', ')}`,
      `      text: ${r.text}`,
      `      ip ${r.ip ?? '-'}  url ${r.url}`,
      `      user agent ${r.user_agent ?? '-'}`,
      `      snapshot ${r.snapshot_id}${r.content_commit ? `  commit ${r.content_commit}` : ''}${r.experiment ? `  experiment ${r.experiment.id}/${r.experiment.variant}` : ''}`,
      `      record ${r.id}  session ${r.session_id}  anonymous ${r.anonymous_id}`,
    ]
  }
  const c = entry.call
  if (c.kind === 'demand-check') {
    const answer = JSON.stringify(c.answer ?? null)
    return [
      `${at}  demand check    ${c.ok ? 'answered' : `failed (${c.status})`}  ${answer.length > 160 ? `${answer.slice(0, 159)}…` : answer}`,
    ]
  }
  return [
    `${at}  phone lease     ${c.ok ? `${c.phone}${c.expires_at ? ` until ${time(c.expires_at)}` : ''}` : `failed (${c.status})`}`,
  ]
}
