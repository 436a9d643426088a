/**
 * Rule 1 of the resume rule (docs/decisions/0220): the stored answers kept for a funnel as it is now.
 * Its own module so the browser's funnel loads it without the replay (engine/funnel/resume.ts).
 */
import type { FormValues } from '../runtime-contracts'
import type { ResolvedFunnel, ResolvedStep } from '../snapshot/types'

type Field = ResolvedStep['fields'][number]

function fits(field: Field, value: unknown): boolean {
  // A skipped step stores its fields emptied: that answer stays, whatever the kind.
  if (value === '') return true
  if (field.kind === 'yes-no') return typeof value === 'boolean'
  if (field.kind === 'choice')
    return typeof value === 'string' && !!field.options?.some((o) => o.value === value)
  return typeof value === 'string'
}

/** The answers kept for the funnel as it is now (rule 1). */
export function migrateAnswers(funnel: ResolvedFunnel, values: FormValues): FormValues {
  const kept: FormValues = { ...values }
  const fields = new Map<string, Field[]>()
  for (const step of funnel.steps)
    for (const f of step.fields) fields.set(f.name, [...(fields.get(f.name) ?? []), f])
  for (const [name, asked] of fields) {
    const key = name as keyof FormValues
    if (key in kept && !asked.every((f) => fits(f, kept[key]))) delete kept[key]
  }
  return kept
}
