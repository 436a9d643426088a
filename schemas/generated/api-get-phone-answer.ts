/* Generated from schemas/api-get-phone-answer.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Answer of POST /api/mediaalpha/get-phone (spec point 7): the leased number (11 digits) and when the lease ends.
 */
export interface GetPhoneAnswer {
  value: string
  expirationDate: string
}
