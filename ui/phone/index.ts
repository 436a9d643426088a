export { PhoneCta, type PhoneCtaProps } from './PhoneCta'
export type { PhoneLine } from './use-phone-line'
