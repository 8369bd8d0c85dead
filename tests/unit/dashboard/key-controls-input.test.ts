import { describe, expect, it } from 'vitest'
import { controlledProducts } from '~/contracts/key-controls'
import {
  expiryOf,
  formValuesOf,
  lastDayOf,
  validateControls,
  type ControlsFormValues,
} from '~/features/dashboard/account/controls-input'
import { addressInRanges, normaliseRange } from '~/lib/address-ranges'

const served = ['embeddings-v3', 'reranker-v3', 'deepsearch-v1']
const now = new Date('2026-11-26T15:00:00Z')
const blank: ControlsFormValues = {
  dailyCap: '',
  monthlyCap: '',
  products: [...controlledProducts],
  models: served,
  expiresOn: '',
  ranges: '',
}

describe('address ranges', () => {
  it('normalises IPv4 and IPv6 ranges and bare addresses, and refuses what is neither', () => {
    expect(normaliseRange(' 10.1.2.3/8 ')).toBe('10.0.0.0/8')
    expect(normaliseRange('2001:DB8::1/32')).toBe('2001:db8::/32')
    expect(normaliseRange('203.0.113.9')).toBe('203.0.113.9/32')
    expect(normaliseRange('::1')).toBe('::1/128')
    for (const wrong of ['10.0.0.0/33', '300.1.1.1', 'example.com', '10.0.0.0/', ''])
      expect(normaliseRange(wrong)).toBeUndefined()
  })

  it('matches the client address as the app derives it, an IPv4-mapped address as its IPv4 one', () => {
    const ranges = ['10.0.0.0/8', '2001:db8::/32']
    expect(addressInRanges('10.200.0.1', ranges)).toBe(true)
    expect(addressInRanges('::ffff:10.0.0.7', ranges)).toBe(true)
    expect(addressInRanges('2001:db8:ffff::1', ranges)).toBe(true)
    expect(addressInRanges('[2001:db8::5]:443', ranges)).toBe(true)
    expect(addressInRanges('11.0.0.1', ranges)).toBe(false)
    expect(addressInRanges('2001:db9::1', ranges)).toBe(false)
    expect(addressInRanges('unknown', ranges)).toBe(false)
  })
})

describe('the controls form', () => {
  it('saves an untouched form as no limits at all', () => {
    expect(validateControls(blank, served, now)).toEqual({
      success: true,
      output: {
        daily_cap: null,
        monthly_cap: null,
        allowed_products: null,
        allowed_models: null,
        expires_at: null,
        allowed_networks: null,
      },
    })
  })

  it('reads grouped digits in any interface language, a last day as the end of that UTC day, ranges a line', () => {
    const checked = validateControls(
      {
        dailyCap: '1.000.000',
        monthlyCap: '20 000 000',
        products: ['embeddings'],
        models: ['embeddings-v3'],
        expiresOn: '2026-12-31',
        ranges: '10.1.2.3/8\n\n2001:db8::1',
      },
      served,
      now,
    )
    expect(checked).toEqual({
      success: true,
      output: {
        daily_cap: 1_000_000,
        monthly_cap: 20_000_000,
        allowed_products: ['embeddings'],
        allowed_models: ['embeddings-v3'],
        expires_at: '2027-01-01T00:00:00.000Z',
        allowed_networks: ['10.0.0.0/8', '2001:db8::1/128'],
      },
    })
  })

  it('names each problem before anything is sent', () => {
    const checked = validateControls(
      {
        dailyCap: 'lots',
        monthlyCap: '0',
        products: [],
        models: [],
        expiresOn: '2026-11-25',
        ranges: '10.0.0.0/8\nexample.com',
      },
      served,
      now,
    )
    expect(checked).toEqual({
      success: false,
      errors: {
        dailyCap: { kind: 'cap-not-number' },
        monthlyCap: { kind: 'cap-too-small' },
        products: { kind: 'no-product' },
        models: { kind: 'no-model' },
        expiresOn: { kind: 'expiry-past' },
        ranges: { kind: 'range-invalid', range: 'example.com' },
      },
    })
    expect(validateControls({ ...blank, dailyCap: '10', monthlyCap: '5' }, served, now)).toMatchObject({
      errors: { dailyCap: { kind: 'daily-over-monthly' } },
    })
    expect(validateControls({ ...blank, expiresOn: '2026-11-26' }, served, now).success).toBe(true)
  })

  it('shows stored controls back as they were typed, grouped in the interface language', () => {
    const values = formValuesOf(
      {
        key_id: 'k',
        daily_cap: 1_000_000,
        monthly_cap: null,
        allowed_products: null,
        allowed_models: ['reranker-v3'],
        expires_at: expiryOf('2026-12-31'),
        allowed_networks: ['10.0.0.0/8'],
        spent_today: 0,
        spent_this_month: 0,
      },
      served,
      (n) => new Intl.NumberFormat('de').format(n),
    )
    expect(values).toEqual({
      dailyCap: '1.000.000',
      monthlyCap: '',
      products: [...controlledProducts],
      models: ['reranker-v3'],
      expiresOn: '2026-12-31',
      ranges: '10.0.0.0/8',
    })
    expect(lastDayOf('2027-01-01T00:00:00.000Z')).toBe('2026-12-31')
  })
})
