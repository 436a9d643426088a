/**
 * A funnel's overrides of one shared step (funnel.schema.json StepOverrides): each overridden value
 * is a tab of its own, drawn in the step card's override row under the row's heading.
 */
import funnelSchema from '../../../../schemas/funnel.schema.json'
import type { JsonSchema, UiDescription, UiField } from '../types'

export const STEP_OVERRIDES_SCHEMA = (
  funnelSchema as unknown as { properties: { steps: { items: { properties: { overrides: JsonSchema } } } } }
).properties.steps.items.properties.overrides

/** The overridable values in the card's order, with their headings. */
export const OVERRIDE_LABELS = {
  title: 'Question (title)',
  subtitle: 'Subtitle',
  submitLabel: 'Button label',
  name: 'Step name (URL segment)',
  skippable: 'Skippable',
  fields: 'Questions (fields)',
  onSubmit: 'After the answers (onSubmit)',
  onEnter: 'Before the step shows (onEnter)',
} as const

const text = (key: keyof typeof OVERRIDE_LABELS): UiField => ({
  pointer: `/${key}`,
  tab: key,
  label: `${OVERRIDE_LABELS[key]}, overridden in this funnel`,
  hideLabel: true,
  literal: true,
})

export const STEP_OVERRIDES_UI: UiDescription = {
  idPrefix: 'ovr',
  defaultTab: 'other',
  fields: [
    text('title'),
    text('subtitle'),
    text('submitLabel'),
    text('name'),
    {
      pointer: '/skippable',
      tab: 'skippable',
      label: 'Show a skip link (submits the step with its answers empty)',
      literal: true,
    },
    {
      pointer: '/fields',
      tab: 'fields',
      widget: 'questions',
      label: 'Questions in this funnel',
      literal: true,
    },
    {
      pointer: '/onSubmit',
      tab: 'onSubmit',
      widget: 'actions',
      label: 'Actions after the answers',
      literal: true,
    },
    {
      pointer: '/onEnter',
      tab: 'onEnter',
      widget: 'actions',
      label: 'Actions before the step shows',
      literal: true,
    },
  ],
}
