import { allowedPriceIds, constants } from '#config'
import type { Pack } from '~/contracts/catalogue'

/** Every pack the business has priced; only those with an allowed price id are offered. */
export const packs: readonly Pack[] = [
  {
    id: 'pack_tokens_1b',
    product_id: 'prod_tokens_1b',
    product_name: '1B tokens',
    product_description: '1 billion tokens for every API, valid until used.',
    price: 50,
    price_id: 'price_tokens_1b',
    currency: 'USD',
    token_quantity: 1_000_000_000,
  },
  {
    id: 'pack_tokens_11b',
    product_id: 'prod_tokens_11b',
    product_name: '11B tokens',
    product_description: '11 billion tokens for every API, valid until used, with premium rate limits.',
    price: 500,
    price_id: 'price_tokens_11b',
    currency: 'USD',
    token_quantity: 11_000_000_000,
  },
  {
    id: 'pack_tokens_100m',
    product_id: 'prod_tokens_100m',
    product_name: '100M tokens',
    product_description: 'A legacy pack that is no longer sold.',
    price: 10,
    price_id: 'price_tokens_100m_legacy',
    currency: 'USD',
    token_quantity: 100_000_000,
  },
]

/** Spec §3: the free pack, prepended to the list. The spec's copy names it "1M" but describes 10 million; the quantity is 10,000,000. */
export const freePack: Pack = {
  id: 'free',
  product_id: 'free',
  product_name: '10M free tokens',
  product_description: 'A free trial key with 10 million tokens.',
  price: 0,
  price_id: 'free',
  currency: 'USD',
  token_quantity: constants.freePackTokens,
}

export function offeredPacks(): Pack[] {
  return [freePack, ...packs.filter((p) => (allowedPriceIds as readonly string[]).includes(p.price_id))]
}

export function packByPriceId(priceId: string): Pack | undefined {
  return offeredPacks().find((p) => p.price_id === priceId && p.price > 0)
}

/**
 * What a token costs in dollars at the list price of the smallest pack on sale: how a spend limit in dollars is
 * measured on a key that bought none of its tokens (free or transferred ones).
 */
export function listUsdPerToken(): number {
  const sold = offeredPacks().filter((p) => p.price > 0 && p.currency === 'USD')
  const smallest = sold.sort((a, b) => a.token_quantity - b.token_quantity)[0] ?? packs[0]
  return smallest.price / smallest.token_quantity
}
