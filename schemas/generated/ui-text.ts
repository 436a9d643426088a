/* Generated from schemas/ui-text.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * The words of the funnel screens that are not a step's own content, in one language: buttons, progress, and the validation messages (spec point 5). One file per page language, definitions/ui-text/<language>.json; a funnel in that language uses it.
 */
export interface UiText {
  $schema?: string
  /**
   * The page language these words are for; equals the file name.
   */
  language: 'english' | 'es'
  funnel: FunnelUiText
  messages: ValidationMessages
}
export interface FunnelUiText {
  /**
   * Label of a step's submit button when the step names none.
   */
  continue: string
  /**
   * The link back to the previous step.
   */
  back: string
  /**
   * The link that skips an optional step.
   */
  skip: string
  /**
   * Progress text above the question: {step} and {total} are replaced.
   */
  stepOf: string
  /**
   * Accessible name of the progress bar.
   */
  progressLabel: string
  /**
   * Read out by screen readers after a submit with one wrong answer: {messages} is its message.
   */
  checkAnswer: string
  /**
   * The same with several wrong answers: {messages} joins their messages.
   */
  checkAnswers: string
  /**
   * No longer shown: without JavaScript the step posts as a plain form (docs/decisions/0216). Accepted so older content stays valid.
   */
  noscript?: string
  /**
   * The Yes button of a yes-or-no question.
   */
  yes: string
  /**
   * The No button of a yes-or-no question.
   */
  no: string
  /**
   * The small button beside Back on a step shown with answers the server holds: forgets this funnel's answers and goes to its first step (docs/decisions/0230, 0234).
   */
  startOver: string
  /**
   * The small link under a funnel step that makes a resume link (docs/decisions/0222).
   */
  continueElsewhere: string
  /**
   * Button that copies the resume link.
   */
  copyLink: string
  /**
   * Said once the resume link is copied.
   */
  linkCopied: string
  /**
   * Link that opens an e-mail to oneself with the resume link.
   */
  emailLink: string
  /**
   * Shown on the first step when a resume link was expired or altered.
   */
  resumeExpired: string
  /**
   * The body of the e-mail a visitor sends themselves with a resume link: what the link gives, for how long and where ({url}, {days}; docs/decisions/0232).
   */
  resumeLinkMailBody: string
}
/**
 * What a person is told when an answer cannot be accepted. {placeholders} are replaced by the rule's numbers or words.
 */
export interface ValidationMessages {
  /**
   * A yes-or-no question left unanswered.
   */
  chooseYesNo: string
  /**
   * A choice question left unanswered (or answered with an unknown option).
   */
  chooseOption: string
  /**
   * A first or last name under the minimum: {what} is firstName or lastName below, {min} the minimum.
   */
  nameTooShort: string
  /**
   * A name over the maximum: {what}, {max}.
   */
  nameTooLong: string
  /**
   * What a first name is called inside the two messages above.
   */
  firstName: string
  /**
   * What a last name is called inside the two messages above.
   */
  lastName: string
  /**
   * An empty street address.
   */
  addressRequired: string
  /**
   * A street address over the maximum: {max}.
   */
  addressTooLong: string
  /**
   * A ZIP code that is not {length} digits.
   */
  zip: string
  /**
   * An e-mail address that does not look like one.
   */
  email: string
  /**
   * A phone number that is not 10 digits.
   */
  phone: string
  /**
   * A number outside the field's range: {min} and {max}.
   */
  numberRange: string
  /**
   * A number field with something other than a whole number.
   */
  wholeNumber: string
  /**
   * Any other required field left empty: {label} is the field's label, in lower case.
   */
  required: string
}
