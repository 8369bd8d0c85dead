import type { PurchaseItem } from '~/contracts/payments'
import { apiKeys } from '../../db/schema'
import { purchaseBySession, purchasesOfKey, type PurchaseRow } from '../../domain/purchases'
import { PurchaseNotFound } from '../../domain/refusals'
import { eq } from 'drizzle-orm'
import { keyOf, type Caller } from '../caller'
import { fulfilSession } from './fulfil'
import { paymentProvider } from './provider'

function purchaseItem(row: PurchaseRow): PurchaseItem {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    price_id: row.priceId,
    tokens: row.tokens,
    amount: row.amount / 100,
    currency: row.currency,
    card: row.cardLast4 ? { brand: row.cardBrand ?? 'card', last4: row.cardLast4 } : null,
    receipt_url: row.receiptUrl,
    payment_id: row.paymentIntentId,
    reversed_tokens: row.reversedTokens,
    sandbox: row.provider === 'sandbox',
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
  }
}

/** GET /api/v1/billing/purchases: the key's purchases, newest first, with what a receipt shows. */
export async function purchasesFor(caller: Caller): Promise<{ purchases: PurchaseItem[] }> {
  const { db, key } = await keyOf(caller)
  return { purchases: (await purchasesOfKey(db, key.id)).map(purchaseItem) }
}

/**
 * The buyer back on the success page: the purchase is credited now if the session is paid (the same
 * fulfilment as the webhook's, so whichever comes second finds it done), and the new balance is answered.
 */
export async function confirmCheckoutFor(caller: Caller, sessionId: string) {
  const { db, key } = await keyOf(caller)
  const purchase = await purchaseBySession(db, sessionId)
  if (!purchase || purchase.keyId !== key.id) throw new PurchaseNotFound()
  const outcome = await fulfilSession(db, paymentProvider(), purchase)
  const [fresh] = await db.select({ balance: apiKeys.balance }).from(apiKeys).where(eq(apiKeys.id, key.id))
  const status = outcome === 'credited' || outcome === 'already' ? 'paid' : outcome === 'unpaid' ? 'pending' : 'failed'
  return { status, tokens: purchase.tokens, balance: fresh?.balance ?? key.balance } as const
}
