/* Generated from schemas/api-marketplace.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "LocalHour".
 */
export type LocalHour = number
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "PlacementId".
 */
export type PlacementId = string
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "UserAgent".
 */
export type UserAgent = string
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "PageUrl".
 */
export type PageUrl = string
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "Sub".
 */
export type Sub = string
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "Zip".
 */
export type Zip = string
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "Flag".
 */
export type Flag = 0 | 1
/**
 * First the afid or the text null, then utm_source, utm_medium, utm_campaign, utm_content, utm_term and the page key (each the text null when absent).
 *
 * @minItems 7
 * @maxItems 7
 *
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "Source".
 */
export type Source = [string, string, string, string, string, string, string]

/**
 * Parts shared by the ad-marketplace request bodies (spec points 5 and 7).
 */
export interface MarketplacePayloadParts {
  [k: string]: unknown
}
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "AutoData".
 */
export interface AutoData {
  contact?: string
  email?: string
  phone?: string
  address?: string
  zip: Zip | 'auto'
  currently_insured?: Flag
  current_company?: string
  home_ownership?: Flag
  /**
   * @minItems 1
   * @maxItems 10
   */
  vehicles:
    | [
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
    | [
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        },
        {
          primary_driver: 0
          make?: string
        }
      ]
  /**
   * @minItems 1
   * @maxItems 1
   */
  drivers: [
    {
      relationship: 'self'
      primary_vehicle: 0
      credit_rating?: 'Excellent' | 'Good' | 'Average' | 'Poor'
    }
  ]
}
/**
 * This interface was referenced by `MarketplacePayloadParts`'s JSON-Schema
 * via the `definition` "MedicareData".
 */
export interface MedicareData {
  currently_insured?: Flag
  dsnp?: Flag
  zip?: Zip
}
