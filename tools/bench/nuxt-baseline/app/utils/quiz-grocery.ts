/**
 * The grocery quiz (definitions/funnels/quiz-grocery*.json with definitions/ui-text/english.json): its
 * five steps, the words around them and the checks on each answer, as the seed's Nuxt sites keep a
 * quiz in code.
 */
export type FieldKind = 'zip' | 'yes-no' | 'text' | 'email' | 'tel'
export interface QuizField {
  name: string
  kind: FieldKind
  label: string
  placeholder?: string
  hint?: string
  autocomplete?: string
}
export interface QuizStep {
  name: string
  title: string
  subtitle: string
  fields: QuizField[]
  submitLabel?: string
}
export type Answer = string | boolean

export const steps: QuizStep[] = [
  {
    name: 'zip',
    title: 'What is your ZIP code?',
    subtitle: 'We use it to find the plans sold where you live.',
    fields: [
      {
        name: 'zipcode',
        kind: 'zip',
        label: 'ZIP code',
        placeholder: 'e.g. 60601',
        hint: 'Plans and benefits are approved county by county.',
        autocomplete: 'postal-code',
      },
    ],
  },
  {
    name: 'medicare',
    title: 'Do you have Medicare Part A and Part B?',
    subtitle: 'Your red, white and blue Medicare card shows both if you have them.',
    fields: [{ name: 'haveMedicare', kind: 'yes-no', label: 'I have Medicare Part A and Part B' }],
  },
  {
    name: 'medicaid',
    title: 'Do you also have Medicaid?',
    subtitle:
      'People with both Medicare and Medicaid can choose from additional plans, such as Dual Eligible Special Needs Plans.',
    fields: [{ name: 'haveMedicaid', kind: 'yes-no', label: 'I have Medicaid or a Medicare Savings Program' }],
  },
  {
    name: 'name',
    title: 'What is your name?',
    subtitle: 'So the licensed agent knows who to ask for.',
    fields: [
      { name: 'firstName', kind: 'text', label: 'First name', placeholder: 'First name', autocomplete: 'given-name' },
      { name: 'lastName', kind: 'text', label: 'Last name', placeholder: 'Last name', autocomplete: 'family-name' },
    ],
  },
  {
    name: 'contact',
    title: 'How can a licensed agent reach you?',
    subtitle: 'We only use these to follow up on your request.',
    fields: [
      { name: 'email', kind: 'email', label: 'E-mail address', placeholder: 'you@example.com', autocomplete: 'email' },
      {
        name: 'phone',
        kind: 'tel',
        label: 'Phone number',
        placeholder: '(555) 555-5555',
        hint: 'A licensed agent will call you at this number.',
        autocomplete: 'tel-national',
      },
    ],
    submitLabel: 'Get my plan options',
  },
]

export const text = {
  continue: 'Continue',
  back: '← Back',
  noscript:
    'This short form needs JavaScript to work. Please turn JavaScript on in your browser settings and reload the page.',
  yes: 'Yes',
  no: 'No',
  consent: (seller: string, buttonLabel: string) =>
    `By clicking “${buttonLabel}”, I agree that ${seller} and its licensed agents may contact me at the number provided, including by autodialer, prerecorded messages and text, about Medicare and insurance plans. Consent is not a condition of purchase. Message and data rates may apply.`,
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

/** The message a visitor sees for an answer, or undefined when it is fine. */
export function check(field: QuizField, value: Answer | undefined): string | undefined {
  const v = typeof value === 'string' ? value.trim() : ''
  switch (field.kind) {
    case 'yes-no':
      return typeof value === 'boolean' ? undefined : 'Choose Yes or No'
    case 'zip':
      return /^\d{5}$/.test(v) ? undefined : 'Enter a 5-digit ZIP code'
    case 'email':
      return EMAIL.test(v) ? undefined : 'Enter an email address like name@example.com'
    case 'tel':
      return v.replace(/\D/g, '').length === 10 ? undefined : 'Enter a 10-digit phone number, like (555) 123-4567'
    default:
      return v.length >= 2 ? undefined : `Enter your ${field.label.toLowerCase()} (at least 2 letters)`
  }
}

/** (555) 123-4567 as it is typed. */
export function maskPhone(input: string): string {
  const d = input.replace(/\D/g, '').replace(/^1/, '').slice(0, 10)
  if (d.length < 4) return d
  if (d.length < 7) return `(${d.slice(0, 3)}) ${d.slice(3)}`
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`
}
