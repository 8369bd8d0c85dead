import type { PurchaseItem } from '~/contracts/payments'
import { apiKeys } from '../../db/schema'
import { purchaseBySession, purchasesOfKey, type PurchaseRow } from '../../domain/purchases'
import { PurchaseNotFound } from '../../domain/refusals'
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/types'
import type { AuditBy } from '../../domain/audit'
import type { ApiKey } from '../../domain/keys'
import { paymentsBy } from '../audit/actor'
import { keyOf, type Caller } from '../caller'
import { billingProfileOf } from '../../domain/auto-recharge'
import { cardSetupBySession } from '../../domain/card-setups'
import { invoiceLabel, invoiceNumbersOf } from '../../domain/invoices'
import { fulfilSetup } from './card-setup'
import { fulfilSession } from './fulfil'
import { paymentProvider } from './provider'

function purchaseItem(row: PurchaseRow, invoiceNumber: number | undefined): PurchaseItem {
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
    invoice_number: invoiceNumber === undefined ? null : invoiceLabel(invoiceNumber),
  }
}

/** GET /api/v1/billing/purchases: the key's purchases, newest first, with what a receipt shows. */
export async function purchasesFor(caller: Caller): Promise<{ purchases: PurchaseItem[] }> {
  const { db, key } = await keyOf(caller)
  return purchasesOfBalance(db, key.id)
}

/** The purchases of a balance: a key's own, or an organisation's shared one (its balance row's id). */
export async function purchasesOfBalance(db: Db, keyId: string): Promise<{ purchases: PurchaseItem[] }> {
  const rows = await purchasesOfKey(db, keyId)
  const numbers = await invoiceNumbersOf(
    db,
    rows.map((row) => row.id),
  )
  return { purchases: rows.map((row) => purchaseItem(row, numbers.get(row.id))) }
}

/**
 * The buyer back on the success page: the purchase is credited now if the session is paid (the same
 * fulfilment as the webhook's, so whichever comes second finds it done), and the new balance is answered.
 */
export async function confirmCheckoutFor(caller: Caller, sessionId: string) {
  const { db, key } = await keyOf(caller)
  const purchase = await purchaseBySession(db, sessionId)
  if (!purchase) return confirmSetup(db, paymentsBy(caller), key, sessionId)
  if (purchase.keyId !== key.id) throw new PurchaseNotFound()
  const outcome = await fulfilSession(db, paymentsBy(caller), paymentProvider(), purchase)
  const [fresh] = await db.select({ balance: apiKeys.balance }).from(apiKeys).where(eq(apiKeys.id, key.id))
  const status = outcome === 'credited' || outcome === 'already' ? 'paid' : outcome === 'unpaid' ? 'pending' : 'failed'
  return { status, tokens: purchase.tokens, balance: fresh?.balance ?? key.balance } as const
}

/** Back from a setup-mode checkout: the card saved now if the session completed, and which card it is. */
async function confirmSetup(db: Db, by: AuditBy, key: ApiKey, sessionId: string) {
  const setup = await cardSetupBySession(db, sessionId)
  if (!setup || setup.keyId !== key.id) throw new PurchaseNotFound()
  const outcome = await fulfilSetup(db, by, paymentProvider(), setup)
  const profile = await billingProfileOf(db, key.id)
  const status =
    outcome === 'saved' || outcome === 'already' ? 'card_saved' : outcome === 'pending' ? 'pending' : 'failed'
  const card = profile?.cardLast4 ? { brand: profile.cardBrand ?? 'card', last4: profile.cardLast4 } : null
  return { status, tokens: 0, balance: key.balance, card } as const
}
