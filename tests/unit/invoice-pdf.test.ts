import { extractText, getDocumentProxy } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { billingProblems } from '~/contracts/billing-details'
import { renderInvoicePdf, type InvoiceDocument } from '~/server/providers/documents/invoice-pdf'

const invoice: InvoiceDocument = {
  number: 'INV-000007',
  issuedAt: new Date('2026-11-26T12:00:00Z'),
  seller: {
    name: 'Lodestar AI GmbH',
    address: ['Friedrichstraße 100', '10117 Berlin', 'Germany'],
    vatId: 'DE123456789',
    registrationId: 'Amtsgericht Berlin-Charlottenburg, HRB 123456 B',
    email: 'support@lodestar.example',
  },
  buyer: { name: 'Zoë Œuvre SARL', address: '3 rue de l’Église\n75001 Paris', taxId: 'FR12345678901' },
  item: '11,000,000,000 API tokens',
  amount: '€500.00',
  paidWith: 'Visa ending 4242',
  purchaseId: '00000000-0000-4000-8000-000000000001',
  paymentId: 'pi_123',
  receiptUrl: 'https://pay.stripe.com/receipts/abc',
  sandbox: false,
}

const textOf = async (bytes: Uint8Array) =>
  (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text

describe('the invoice document', () => {
  it('prints accented Latin text, the euro sign and the receipt link, and a stray other script as ?', async () => {
    const text = await textOf(await renderInvoicePdf(invoice))
    for (const expected of ['INV-000007', 'Zoë Œuvre SARL', 'l’Église', '€500.00', 'pay.stripe.com/receipts/abc'])
      expect(text).toContain(expected)
    const stray = await textOf(await renderInvoicePdf({ ...invoice, buyer: { ...invoice.buyer!, name: 'Tōkyō 東京' } }))
    expect(stray).toContain('T?ky? ??')
  })

  it("prints the seller's address, VAT id and register entry, and leaves out what is not configured", async () => {
    const text = await textOf(await renderInvoicePdf(invoice))
    for (const expected of [
      'Friedrichstraße 100',
      '10117 Berlin',
      'VAT ID: DE123456789',
      'Registration: Amtsgericht Berlin-Charlottenburg, HRB 123456 B',
      'support@lodestar.example',
    ])
      expect(text).toContain(expected)
    const bare = await textOf(
      await renderInvoicePdf({ ...invoice, seller: { ...invoice.seller, address: [], vatId: '', registrationId: '' } }),
    )
    expect(bare).not.toContain('VAT ID')
    expect(bare).not.toContain('Registration:')
  })

  it('says there are no billing details rather than leaving the buyer blank', async () => {
    expect(await textOf(await renderInvoicePdf({ ...invoice, buyer: null }))).toContain('(no billing details given)')
  })
})

describe('billing details checks', () => {
  it('accepts what the invoice can print and names each field it cannot', () => {
    expect(billingProblems({ name: 'Zoë Œuvre', address: '1 Main St\nSpringfield', tax_id: 'DE-123/45' })).toEqual([])
    expect(billingProblems({ name: '東京', address: '1\n2\n3\n4\n5\n6\n7', tax_id: '<x>' })).toEqual([
      { field: 'name', problem: 'not_printable' },
      { field: 'address', problem: 'too_many_lines' },
      { field: 'tax_id', problem: 'tax_id_shape' },
    ])
    expect(billingProblems({ name: ' ', address: '', tax_id: null })).toEqual([
      { field: 'name', problem: 'missing' },
      { field: 'address', problem: 'missing' },
    ])
  })
})
