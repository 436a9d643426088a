/* Generated from schemas/auth-login.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/_auth/session: staff sign-in.
 */
export interface AuthLogin {
  email: string
  password: string
}
