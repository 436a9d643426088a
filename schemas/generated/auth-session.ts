/* Generated from schemas/auth-session.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Answer of GET and POST /api/_auth/session (spec points 3 and 7): `{}` when nobody is signed in, else the staff user.
 */
export interface AuthSession {
  user?: AuthUser
}
/**
 * This interface was referenced by `AuthSession`'s JSON-Schema
 * via the `definition` "AuthUser".
 */
export interface AuthUser {
  id: string
  email: string
  name: string
  role: string
}
