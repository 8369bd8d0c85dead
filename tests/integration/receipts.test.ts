import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { createMailer, drainOutbox, outboxIdle, resetOutboxWorker } from '~/server/providers/email'
import { extractText, getDocumentProxy } from 'unpdf'
import { apiDatabase, call, keyWithBalance, respond, scalar } from '../support/api'
import { buyPack, SANDBOX_SECRET } from '../support/payments'
import { startSmtpServer } from '../support/smtp'

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
const database = apiDatabase({
  env: async () => {
    smtp = await startSmtpServer()
    resetOutboxWorker()
    return {
      SMTP_URL: smtp.url,
      PAYMENTS_SANDBOX_SECRET: SANDBOX_SECRET,
      SELLER_ADDRESS: 'Hauptstraße 5; 80331 München; Germany',
      SELLER_VAT_ID: 'DE999999999',
      SELLER_REGISTRATION_ID: '',
    }
  },
  maxConnections: 20,
})
afterAll(async () => {
  await outboxIdle()
  await smtp?.close()
})

/** The text of a mail as received, its quoted-printable soft breaks and escapes undone. */
const bodyOf = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

describe('the receipt and the invoice of a purchase', () => {
  it('is e-mailed once to the buyer, with the pack, the amount, the card, the invoice number and where the invoice is', async () => {
    const key = await keyWithBalance(database.db, 0)
    const { paid } = await buyPack(key.apiKey)
    expect(paid).toMatchObject({ kind: 'paid' })
    await outboxIdle()
    await drainOutbox(database.db, await createMailer())
    const mails = smtp.received.filter((mail) => mail.to.includes('buyer@example.com'))
    const receipts = mails.filter((mail) => /receipt for 1,000,000,000 API tokens/.test(mail.raw))
    expect(receipts).toHaveLength(1)
    const text = bodyOf(receipts[0].raw)
    const [purchase] = (await call('GET', '/api/v1/billing/purchases', { bearer: key.apiKey })).body.purchases
    expect(text).toContain('Item: 1,000,000,000 API tokens')
    expect(text).toContain('Amount: $50.00')
    expect(text).toContain('Paid with: Visa ending 4242')
    expect(text).toContain(`Invoice: ${purchase.invoice_number}`)
    expect(text).toContain(`Purchase: ${purchase.id}`)
    expect(text).toContain('/api-dashboard/billing')
    expect(text).toContain('test-mode payment in the sandbox')
    // The payment's second event credits nothing again, and sends no second receipt.
    expect(
      await scalar(
        database.db,
        sql`select count(*) from email_outbox where kind = 'purchase_receipt' and meta->>'purchase_id' = ${purchase.id}`,
      ),
    ).toBe(1)
  })

  it("prints the seller's address and VAT id from the configuration on the invoice, and no register entry left empty", async () => {
    const key = await keyWithBalance(database.db, 0)
    await buyPack(key.apiKey)
    const [purchase] = (await call('GET', '/api/v1/billing/purchases', { bearer: key.apiKey })).body.purchases
    const response = await respond('GET', `/api/v1/billing/invoices/${purchase.id}`, { bearer: key.apiKey })
    expect(response.status).toBe(200)
    const document = await getDocumentProxy(new Uint8Array(await response.arrayBuffer()))
    const { text } = await extractText(document, { mergePages: true })
    for (const expected of ['Lodestar AI GmbH', 'Hauptstraße 5', '80331 München', 'VAT ID: DE999999999'])
      expect(text).toContain(expected)
    expect(text).not.toContain('Registration:')
  })
})
