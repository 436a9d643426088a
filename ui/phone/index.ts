export { PhoneCta } from './PhoneCta'
