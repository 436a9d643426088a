/* Generated from schemas/api-get-phone-body.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * First the afid or the text null, then utm_source, utm_medium, utm_campaign, utm_content, utm_term and the page key (each the text null when absent).
 *
 * @minItems 7
 * @maxItems 7
 */
export type Source = [string, string, string, string, string, string, string]

/**
 * Body of POST /api/mediaalpha/get-phone (spec point 7). The server replaces `ip` with the client IP it sees.
 */
export interface GetPhoneBody {
  data: AutoData | MedicareData
  ip?: string
  local_hour: number
  phone_num_lease_time: 300
  placement_id: string
  ua: string
  url: string
  version: 17
  sub_1: string
  sub_2: string
  sub_3: string
  source: Source
}
export interface AutoData {
  contact?: string
  email?: string
  phone?: string
  address?: string
  zip: string | 'auto'
  currently_insured?: 0 | 1
  current_company?: string
  home_ownership?: 0 | 1
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
export interface MedicareData {
  currently_insured?: 0 | 1
  dsnp?: 0 | 1
  zip?: string
}
