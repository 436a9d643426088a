import { useMemo, useState } from 'react'
import type { PhoneRuleCoverage } from '../../../engine/phone/phone-rule-coverage'
import type { DefinitionError, FileRow } from '../../../schemas/generated/cc-answers/common'
import type { PhoneRule } from '../../../schemas/generated/phone-rule'
import schema from '../../../schemas/phone-rule.schema.json'
import { PHONE_RULE_UI } from '../forms/kinds/phone-rule-ui'
import { SchemaForm } from '../forms/SchemaForm'
import type { JsonSchema } from '../forms/types'
import { SourceEditor } from '../SourceEditor'
import { ErrorState, Loading } from '../States'
import { Tabs } from '../Tabs'
import { useJsonDraft } from '../use-json-draft'

/** A rule file as GET /api/cc/branches/:b/phone-rules lists it. */
export interface PhoneRuleRow extends FileRow {
  rule: PhoneRule | null
  errors: DefinitionError[]
}

export interface PhoneRulesData {
  head: string
  rules: PhoneRuleRow[]
  brands: { id: string; name: string; public: boolean }[]
  pages: Record<string, string[]>
  coverage: PhoneRuleCoverage
}

type Doc = Record<string, unknown>

/** The selected rule (`&file=`): a form built from phone-rule.schema.json, and its Source tab. */
export function PhoneRuleDetail({
  branch,
  path,
  data,
}: {
  branch: string
  path: string
  data: PhoneRulesData | null
}) {
  const [tab, setTab] = useState('form')
  const close = new URL(location.href)
  close.searchParams.delete('file')
  close.searchParams.delete('pointer')
  return (
    <section className="cc-card cc-detail fw-pr-detail" aria-label={`Phone rule ${path}`}>
      <div className="cc-row cc-row-between">
        <h2 className="cc-h3">
          <code>{path}</code>
        </h2>
        <a className="button cc-small" href={close.pathname + close.search}>
          Close
        </a>
      </div>
      <Tabs
        label="Edit the rule"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'form', label: 'Form' },
          { id: 'source', label: 'Source' },
        ]}
      >
        {tab === 'form' ? (
          <PhoneRuleForm branch={branch} path={path} data={data} />
        ) : (
          <SourceEditor branch={branch} path={path} />
        )}
      </Tabs>
    </section>
  )
}

/**
 * The rule's fields, built from phone-rule.schema.json by the form registry, saved as my draft 800 ms
 * after typing stops (the same drafts and commit as the Source editor), with the server's errors at
 * their field. What is typed stays as typed, valid or not.
 */
function PhoneRuleForm({
  branch,
  path,
  data,
}: {
  branch: string
  path: string
  data: PhoneRulesData | null
}) {
  const draft = useJsonDraft<Doc>(branch, path)
  const value = draft.value
  const brand = String(value?.brand ?? '')
  const ctx = useMemo(
    () => ({
      refs: {
        brands: data?.brands
          .filter((b) => b.public)
          .map((b) => ({
            value: b.id,
            label: `${b.name.replace(/\{[^}]*\}/g, '').trim() || b.id} (${b.id})`,
          })),
        pages: (data?.pages[brand] ?? []).map((p) => ({ value: p, label: p })),
      },
    }),
    [data, brand],
  )
  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.loading || (!value && !draft.unreadable)) return <Loading what={path} />
  if (draft.unreadable || !value)
    return (
      <p className="cc-form-error" role="alert">
        This file is not a JSON object, so the form cannot show it: fix it in the Source tab.
      </p>
    )
  return (
    <div className="stack fw-pr-form">
      {draft.bar}
      <SchemaForm
        schema={schema as JsonSchema}
        ui={PHONE_RULE_UI}
        value={value}
        onChange={draft.update}
        errors={draft.errors}
        readOnly={draft.readOnly}
        ctx={ctx}
        label="Rule fields"
        className="fw-pr-fields"
      />
    </div>
  )
}
