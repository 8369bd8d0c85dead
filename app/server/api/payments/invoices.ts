import type * as v from 'valibot'
import type { BillingDetails, billingDetailsBody } from '~/contracts/billing-details'
import { brand } from '#config'
import {
  billingDetailsOf,
  invoiceLabel,
  issueInvoice,
  saveBillingDetails,
  type BillingDetailsRow,
} from '../../domain/invoices'
import { renderInvoicePdf, type InvoiceDocument } from '../../providers/documents/invoice-pdf'
import { serverEnv, type ServerEnv } from '../../env'
import type { Db } from '../../db/types'
import type { AuditBy } from '../../domain/audit'
import { refuseSharedBalance } from '../../domain/organisation-keys'
import { keyOf, type Caller } from '../caller'
import { auditBy } from '../audit/actor'

const detailsOf = (row: BillingDetailsRow | undefined): BillingDetails | null =>
  row ? { name: row.name, address: row.address, tax_id: row.taxId } : null

/** GET /api/v1/billing/details: what the key's invoices will say about the buyer. */
export async function billingDetailsFor(caller: Caller): Promise<{ details: BillingDetails | null }> {
  const { db, key } = await keyOf(caller)
  return billingDetailsOfBalance(db, key.id)
}

/** The billing details of a balance: a key's own, or an organisation's shared one (its balance row's id). */
export async function billingDetailsOfBalance(db: Db, keyId: string): Promise<{ details: BillingDetails | null }> {
  return { details: detailsOf(await billingDetailsOf(db, keyId)) }
}

/** PUT /api/v1/billing/details: invoices issued from now on carry them (issued ones keep theirs). */
export async function saveBillingDetailsFor(
  caller: Caller,
  body: v.InferOutput<typeof billingDetailsBody>,
): Promise<{ details: BillingDetails | null }> {
  const { db, key } = await keyOf(caller)
  refuseSharedBalance(key)
  return saveBillingDetailsOfBalance(db, auditBy(caller), key.id, body)
}

export async function saveBillingDetailsOfBalance(
  db: Db,
  by: AuditBy,
  keyId: string,
  body: v.InferOutput<typeof billingDetailsBody>,
): Promise<{ details: BillingDetails | null }> {
  const row = await saveBillingDetails(db, by, keyId, { name: body.name, address: body.address, taxId: body.tax_id })
  return { details: detailsOf(row) }
}

/** The seller block: the brand's legal name and e-mail, the address and ids this server is configured with. */
function sellerOf(env: ServerEnv): InvoiceDocument['seller'] {
  return {
    name: brand.legalName,
    address: env.SELLER_ADDRESS.split(/\n|\\n|;/)
      .map((part) => part.trim())
      .filter(Boolean),
    vatId: env.SELLER_VAT_ID.trim(),
    registrationId: env.SELLER_REGISTRATION_ID.trim(),
    email: brand.supportEmail,
  }
}

const cardName = (brandName: string) => brandName.charAt(0).toUpperCase() + brandName.slice(1)

/** GET /api/v1/billing/invoices/{purchase_id}: the purchase's invoice as a PDF, with its number and the buyer's details. */
export async function invoicePdfFor(caller: Caller, purchaseId: string): Promise<{ name: string; pdf: Uint8Array }> {
  const { db, key } = await keyOf(caller)
  return invoicePdfOfBalance(db, key.id, purchaseId)
}

/** The invoice of a purchase of a balance: a key's own, or an organisation's shared one (its balance row's id). */
export async function invoicePdfOfBalance(
  db: Db,
  keyId: string,
  purchaseId: string,
): Promise<{ name: string; pdf: Uint8Array }> {
  const { purchase, invoice } = await issueInvoice(db, keyId, purchaseId)
  // Fixed on the invoice once issued; until then the key's current details (none yet: printed without).
  const buyer = invoice.detailsFixedAt
    ? { name: invoice.billingName ?? '', address: invoice.billingAddress ?? '', taxId: invoice.billingTaxId }
    : null
  const number = invoiceLabel(invoice.number)
  const pdf = await renderInvoicePdf({
    number,
    issuedAt: invoice.issuedAt,
    seller: sellerOf(serverEnv()),
    buyer,
    item: `${new Intl.NumberFormat('en-US').format(purchase.tokens)} API tokens`,
    amount: new Intl.NumberFormat('en-US', { style: 'currency', currency: purchase.currency }).format(
      purchase.amount / 100,
    ),
    paidWith: purchase.cardLast4 ? `${cardName(purchase.cardBrand ?? 'card')} ending ${purchase.cardLast4}` : null,
    purchaseId: purchase.id,
    paymentId: purchase.paymentIntentId,
    receiptUrl: purchase.receiptUrl,
    sandbox: purchase.provider === 'sandbox',
  })
  return { name: `${number}.pdf`, pdf }
}
