/** The phone rule form's UI description (phone-rule.schema.json). */
import schema from '../../../../schemas/phone-rule.schema.json'
import type { UiDescription } from '../types'

const MATCH = 'Match (empty: the brand default)'

export const PHONE_RULE_UI: UiDescription = {
  idPrefix: 'pr',
  defaultTab: 'form',
  omit: ['$schema'],
  sectionHelp: { [MATCH]: `${schema.properties.match.description} Separate values with commas.` },
  fields: [
    { pointer: '/id', label: 'Id', readOnly: true, className: 'fw-pr-field' },
    { pointer: '/description', className: 'fw-pr-field' },
    { pointer: '/brand', widget: 'reference', ref: 'brands', allowNone: false, className: 'fw-pr-field' },
    { pointer: '/defaultNumber', label: 'Phone number', widget: 'phone', className: 'fw-pr-field' },
    {
      pointer: '/match/pages',
      label: 'Pages',
      widget: 'commaList',
      ref: 'pages',
      section: MATCH,
      className: 'fw-pr-field',
    },
    {
      pointer: '/match/utmSource',
      label: 'utm_source values',
      widget: 'commaList',
      section: MATCH,
      className: 'fw-pr-field',
    },
    {
      pointer: '/match/afid',
      label: 'afid values',
      widget: 'commaList',
      section: MATCH,
      className: 'fw-pr-field',
    },
    { pointer: '/placementId', label: 'Placement id', className: 'fw-pr-field' },
    { pointer: '/afid', label: 'Affiliate id (sub_1)', className: 'fw-pr-field' },
  ],
}
