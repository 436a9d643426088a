import { describe, expect, it } from 'vitest'
import type { AutoData, MedicareData } from '../../schemas/generated/api-marketplace'
import { validatorFor } from '../definitions/validators'
import type { FormValues } from '../runtime-contracts'
import {
  autoData,
  demandCheckBody,
  getPhoneBody,
  type MarketplaceFacts,
  medicareData,
  quoteData,
  sourceOf,
  zipFor,
} from './payloads'

const facts = (over: Partial<MarketplaceFacts> = {}): MarketplaceFacts => ({
  brandId: 'tqg',
  ip: '73.162.0.1',
  geo: { postalCode: '95131', stateCode: 'CA' },
  localHour: 9,
  placementId: 'tqg-web',
  ruleAfid: '204511',
  userAgent: 'Mozilla/5.0 test',
  url: 'https://www.thequotegeneral.com/compare-auto/zip?utm_source=google',
  pageKey: 'compare-auto',
  urlParams: { utm_source: 'google' },
  userId: 'user-1',
  sessionId: 'session-1',
  ...over,
})

/** One field of the auto payload for a set of form values. */
const auto = (values: FormValues) => autoData(values, undefined) as unknown as Record<string, unknown>

describe('auto payload: each optional field only when valid', () => {
  const cases: [string, FormValues, string, unknown][] = [
    ['contact valid', { firstName: 'Ann', lastName: 'Smith' }, 'contact', 'Ann Smith'],
    ['contact trimmed', { firstName: '  Ann ', lastName: ' Smith ' }, 'contact', 'Ann Smith'],
    ['contact first too short', { firstName: 'Al', lastName: 'Smith' }, 'contact', undefined],
    ['contact last too short', { firstName: 'Ann', lastName: 'Li' }, 'contact', undefined],
    ['contact too long', { firstName: 'A'.repeat(65), lastName: 'Smith' }, 'contact', undefined],
    [
      'contact 64 is fine',
      { firstName: 'A'.repeat(64), lastName: 'Smith' },
      'contact',
      `${'A'.repeat(64)} Smith`,
    ],
    ['contact missing last', { firstName: 'Ann' }, 'contact', undefined],
    ['email valid', { email: 'ann@example.com' }, 'email', 'ann@example.com'],
    ['email invalid', { email: 'ann@example' }, 'email', undefined],
    ['email with space', { email: 'ann smith@example.com' }, 'email', undefined],
    ['phone valid', { phone: '(415) 555-0132' }, 'phone', '(415) 555-0132'],
    ['phone digits only', { phone: '4155550132' }, 'phone', undefined],
    ['phone dashed', { phone: '415-555-0132' }, 'phone', undefined],
    ['address valid', { address: ' 1 Main St ' }, 'address', '1 Main St'],
    ['address blank', { address: '   ' }, 'address', undefined],
    ['address 128', { address: 'a'.repeat(128) }, 'address', 'a'.repeat(128)],
    ['address 129', { address: 'a'.repeat(129) }, 'address', undefined],
    ['currently insured yes', { currentlyInsured: true }, 'currently_insured', 1],
    ['currently insured no', { currentlyInsured: false }, 'currently_insured', 0],
    ['currently insured unanswered', {}, 'currently_insured', undefined],
    ['currently insured text', { currentlyInsured: 'yes' }, 'currently_insured', undefined],
    ['company valid', { insuranceCompany: 'Geico' }, 'current_company', 'Geico'],
    ['company other means unknown', { insuranceCompany: 'other' }, 'current_company', undefined],
    ['company empty', { insuranceCompany: '' }, 'current_company', undefined],
    ['homeowner yes', { homeowner: true }, 'home_ownership', 1],
    ['homeowner no', { homeowner: false }, 'home_ownership', 0],
    ['homeowner text', { homeowner: 'true' }, 'home_ownership', undefined],
  ]
  it.each(cases)('%s', (_label, values, field, expected) => {
    expect(auto(values)[field]).toEqual(expected)
  })

  it('credit rating capitalised in the one driver; unknown left out', () => {
    expect(autoData({ creditRating: 'excellent' }).drivers).toEqual([
      { relationship: 'self', primary_vehicle: 0, credit_rating: 'Excellent' },
    ])
    expect(autoData({ creditRating: 'poor' }).drivers[0].credit_rating).toBe('Poor')
    expect(autoData({ creditRating: 'superb' }).drivers).toEqual([
      { relationship: 'self', primary_vehicle: 0 },
    ])
  })

  it('vehicleAmount as an integer, default 1; make only on the first vehicle', () => {
    expect(autoData({}).vehicles).toEqual([{ primary_driver: 0 }])
    expect(autoData({ vehicleAmount: '3', vehicleMake: 'Toyota' }).vehicles).toEqual([
      { primary_driver: 0, make: 'Toyota' },
      { primary_driver: 0 },
      { primary_driver: 0 },
    ])
    expect(autoData({ vehicleAmount: 'two' }).vehicles).toHaveLength(1)
    expect(autoData({ vehicleAmount: '0' }).vehicles).toHaveLength(1)
    expect(autoData({ vehicleAmount: '2.5' }).vehicles).toHaveLength(1)
    expect(autoData({ vehicleAmount: '99' }).vehicles).toHaveLength(10)
    expect(autoData({ vehicleMake: '  ' }).vehicles).toEqual([{ primary_driver: 0 }])
  })
})

describe('Medicare payload', () => {
  it('currently_insured from haveMedicare, dsnp from haveMedicaid, zip', () => {
    expect(medicareData({ haveMedicare: true, haveMedicaid: false, zipcode: '33101' })).toEqual({
      currently_insured: 1,
      dsnp: 0,
      zip: '33101',
    })
    expect(medicareData({ haveMedicare: 'x' as never, firstName: 'Ann', lastName: 'Smith' })).toEqual({})
  })
})

describe('zip fallback chain', () => {
  it('zipcode field when 5 digits, else IP zip when 5 digits, else auto (auto brands) or nothing', () => {
    expect(zipFor('tqg', { zipcode: '10001' }, '95131')).toBe('10001')
    expect(zipFor('tqg', { zipcode: '1000' }, '95131')).toBe('95131')
    expect(zipFor('tqg', { zipcode: '10001-1234' }, '9513')).toBe('auto')
    expect(zipFor('ps', {}, undefined)).toBe('auto')
    expect(zipFor('m10', { zipcode: 'abcde' }, '95131')).toBe('95131')
    expect(zipFor('m10', {}, '')).toBeUndefined()
    expect(autoData({}, undefined).zip).toBe('auto')
    expect('zip' in medicareData({}, undefined)).toBe(false)
  })
})

describe('auto vs Medicare by brand', () => {
  it.each(['tqg', 'ps'])('%s gets the auto payload', (brand) => {
    expect(quoteData(brand, {})).toHaveProperty('vehicles')
  })
  it.each(['m10', 'bh', 'ac', 'emily', 'mpa', 'gs'])('%s gets the Medicare payload', (brand) => {
    const data = quoteData(brand, { haveMedicare: true }) as MedicareData & Partial<AutoData>
    expect(data.vehicles).toBeUndefined()
    expect(data.currently_insured).toBe(1)
  })
})

describe('request bodies (spec point 7)', () => {
  it('get-phone: every field, valid against the API schema', () => {
    const body = getPhoneBody(facts(), { zipcode: '10001' })
    expect(body).toEqual({
      data: {
        zip: '10001',
        vehicles: [{ primary_driver: 0 }],
        drivers: [{ relationship: 'self', primary_vehicle: 0 }],
      },
      ip: '73.162.0.1',
      local_hour: 9,
      phone_num_lease_time: 300,
      placement_id: 'tqg-web',
      ua: 'Mozilla/5.0 test',
      url: 'https://www.thequotegeneral.com/compare-auto/zip?utm_source=google',
      version: 17,
      sub_1: '204511',
      sub_2: 'user-1',
      sub_3: 'session-1',
      source: ['204511', 'google', 'null', 'null', 'null', 'null', 'compare-auto'],
    })
    expect(validatorFor('api-get-phone-body.schema.json')(body)).toBe(true)
  })
  it('demand check: data {zip, state}, max 1, Inbound, cold', () => {
    const body = demandCheckBody(facts({ brandId: 'm10' }), {})
    expect(body).toMatchObject({
      data: { zip: '95131', state: 'CA' },
      max: 1,
      call_type: 'Inbound',
      transfer_type: 'cold',
      version: 17,
      sub_1: '204511',
    })
    expect('phone_num_lease_time' in body).toBe(false)
    expect(validatorFor('api-demand-check-body.schema.json')(body)).toBe(true)
    expect(demandCheckBody(facts({ geo: {} }), {}).data).toEqual({})
  })
  it('afid from the URL wins over the rule; source has 7 entries, first the afid or the text null', () => {
    expect(getPhoneBody(facts({ urlParams: { afid: '777' } }), {}).sub_1).toBe('777')
    expect(sourceOf(facts({ urlParams: { afid: '777' } }))[0]).toBe('777')
    const noAfid = sourceOf(facts({ ruleAfid: '', urlParams: {}, pageKey: null }))
    expect(noAfid).toEqual(['null', 'null', 'null', 'null', 'null', 'null', 'null'])
  })
})
