import type { PersonRecords } from '../store/person-data'

/** Every record held about a person, one JSON line per record under a heading per kind (leads -- export). */
export function formatPerson(held: PersonRecords): string {
  if (!held.matchedBy && !held.erased)
    return `Nothing is held for "${held.key}" (an e-mail address, phone number, or anonymous, session or user id).`
  const section = (title: string, rows: unknown[]) => [
    `${title} (${rows.length})`,
    ...rows.map((r) => `  ${JSON.stringify(r)}`),
  ]
  return [
    `Person ${held.key}${held.matchedBy ? ` (matched by ${held.matchedBy})` : ''}`,
    ...(held.erased ? [`  Erased: ${held.erased.at} (erasure ${held.erased.id})`] : []),
    `  anonymous ids: ${held.anonymousIds.join(', ') || 'none'}`,
    `  sessions:      ${held.sessionIds.join(', ') || 'none'}`,
    `  user ids:      ${held.userIds.join(', ') || 'none'}`,
    '',
    ...section('Answers kept', held.answers),
    ...section('Answer keys (browsers that may read the answers)', held.answerKeys),
    ...section('Visitor records', held.visitors),
    ...section('Events', held.events),
    ...section('Consent records', held.consentRecords),
    ...section('Demand checks and phone leases', held.marketplaceCalls),
  ].join('\n')
}
