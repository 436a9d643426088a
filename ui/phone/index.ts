export { HeaderPhone } from './HeaderPhone'
export { PhoneCta, type PhoneCtaProps } from './PhoneCta'
export { type PhoneLine, usePhoneLine } from './use-phone-line'
