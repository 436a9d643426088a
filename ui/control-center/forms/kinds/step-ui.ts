/** The shared step's UI description (step.schema.json), used by the shared step dialog. */
import type { UiDescription } from '../types'

export const STEP_UI: UiDescription = {
  idPrefix: 'step',
  defaultTab: 'step',
  omit: ['$schema', 'id'],
  fields: [
    { pointer: '/title', label: 'Question (title)' },
    { pointer: '/subtitle' },
    { pointer: '/submitLabel', label: 'Button label' },
    { pointer: '/name', label: 'Step name (URL segment)' },
    { pointer: '/skippable', label: 'Show a skip link (submits the step with its answers empty)' },
    { pointer: '/fields', label: 'Questions', widget: 'questions' },
    { pointer: '/onSubmit', label: 'After the answers (onSubmit)', widget: 'actions' },
    { pointer: '/onEnter', label: 'Before the step shows (onEnter)', widget: 'actions' },
  ],
}
