/* Generated from schemas/site.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Site configuration defaults (spec point 3). A brand's own name, favicon and tag-manager id take precedence for its requests.
 */
export interface SiteConfig {
  $schema?: string
  name: string
  favicon: {
    src: string
  }
  gtmId: string
}
