import { describe, expect, it } from 'vitest'
import type { Transaction } from '~/contracts/billing'
import { meterScale } from '~/features/dashboard/key/key-status'
import { defaultModelOf } from '~/features/dashboard/default-model'

const tx = (type: Transaction['type'], amount: number): Transaction => ({
  id: String(amount),
  type,
  amount,
  balance_after: 0,
  product: null,
  model: null,
  created_at: '2026-12-01T00:00:00.000Z',
})

describe("the balance bar's scale", () => {
  it('says which it is: the largest recent pack, a transfer, the free pack, or the balance itself', () => {
    expect(meterScale(5_000_000)).toEqual({ scale: 10_000_000, basis: 'free_pack' })
    expect(meterScale(900_000_000, [tx('purchase', 1_000_000_000), tx('consume', -5)])).toEqual({
      scale: 1_000_000_000,
      basis: 'purchase',
    })
    expect(meterScale(20_000_000, [tx('transfer_in', 15_000_000)])).toEqual({ scale: 20_000_000, basis: 'balance' })
    expect(meterScale(1_000, [tx('transfer_in', 15_000_000)])).toEqual({ scale: 15_000_000, basis: 'transfer' })
  })
})

describe("the dashboard forms' default model", () => {
  it("is the API's default for the use when listed, else the first", () => {
    const models = [{ slug: 'embeddings-v2' }, { slug: 'embeddings-v3' }]
    expect(defaultModelOf(models, 'classify')?.slug).toBe('embeddings-v3')
    expect(defaultModelOf(models, 'embeddings')?.slug).toBe('embeddings-v3')
    expect(defaultModelOf([{ slug: 'other' }], 'classify')?.slug).toBe('other')
    expect(defaultModelOf(undefined, 'classify')).toBeUndefined()
  })
})
