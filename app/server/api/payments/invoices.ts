import type * as v from 'valibot'
import type { BillingDetails, billingDetailsBody } from '~/contracts/billing-details'
import { brand } from '../../../../app.config'
import {
  billingDetailsOf,
  invoiceLabel,
  issueInvoice,
  saveBillingDetails,
  type BillingDetailsRow,
} from '../../domain/invoices'
import { renderInvoicePdf } from '../../providers/documents/invoice-pdf'
import { keyOf, type Caller } from '../caller'

const detailsOf = (row: BillingDetailsRow | undefined): BillingDetails | null =>
  row ? { name: row.name, address: row.address, tax_id: row.taxId } : null

/** GET /api/v1/billing/details: what the key's invoices will say about the buyer. */
export async function billingDetailsFor(caller: Caller): Promise<{ details: BillingDetails | null }> {
  const { db, key } = await keyOf(caller)
  return { details: detailsOf(await billingDetailsOf(db, key.id)) }
}

/** PUT /api/v1/billing/details: invoices issued from now on carry them (issued ones keep theirs). */
export async function saveBillingDetailsFor(
  caller: Caller,
  body: v.InferOutput<typeof billingDetailsBody>,
): Promise<{ details: BillingDetails | null }> {
  const { db, key } = await keyOf(caller)
  const row = await saveBillingDetails(db, key.id, { name: body.name, address: body.address, taxId: body.tax_id })
  return { details: detailsOf(row) }
}

const cardName = (brandName: string) => brandName.charAt(0).toUpperCase() + brandName.slice(1)

/** GET /api/v1/billing/invoices/{purchase_id}: the purchase's invoice as a PDF, with its number and the buyer's details. */
export async function invoicePdfFor(caller: Caller, purchaseId: string): Promise<{ name: string; pdf: Uint8Array }> {
  const { db, key } = await keyOf(caller)
  const { purchase, invoice } = await issueInvoice(db, key.id, purchaseId)
  // Fixed on the invoice once issued; until then the key's current details (none yet: printed without).
  const buyer = invoice.detailsFixedAt
    ? { name: invoice.billingName ?? '', address: invoice.billingAddress ?? '', taxId: invoice.billingTaxId }
    : null
  const number = invoiceLabel(invoice.number)
  const pdf = await renderInvoicePdf({
    number,
    issuedAt: invoice.issuedAt,
    seller: { name: brand.legalName, email: brand.supportEmail },
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
