import type { PDFFont, PDFPage } from 'pdf-lib'

/** What an invoice says: the seller, the buyer as they entered their details, the purchase and its payment. */
export interface InvoiceDocument {
  number: string
  issuedAt: Date
  /** Address lines, VAT id and register entry as configured (`SELLER_*`); what is empty is left out. */
  seller: { name: string; address: string[]; vatId: string; registrationId: string; email: string }
  buyer: { name: string; address: string; taxId: string | null } | null
  item: string
  /** Already formatted with its currency (`$50.00`). */
  amount: string
  paidWith: string | null
  purchaseId: string
  paymentId: string | null
  receiptUrl: string | null
  sandbox: boolean
}

/**
 * The invoice as a one-page A4 PDF (pdf-lib: pure JavaScript, so it runs on Node and edge runtimes alike; loaded
 * only when an invoice is asked for). The standard Helvetica font prints Windows-1252: billing details are
 * checked against it when entered, and anything else that cannot be printed shows as `?`.
 */
export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib')
  const pdf = await PDFDocument.create()
  pdf.setTitle(`Invoice ${invoice.number}`)
  pdf.setAuthor(invoice.seller.name)
  pdf.setCreationDate(invoice.issuedAt)
  const page = pdf.addPage([595.28, 841.89])
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const grey = rgb(0.35, 0.35, 0.4)
  let y = 780
  const line = (text: string, options: { font?: PDFFont; size?: number; x?: number; colour?: typeof grey } = {}) => {
    const font = options.font ?? regular
    write(page, font, printable(font, text), {
      x: options.x ?? 56,
      y,
      size: options.size ?? 10,
      color: options.colour ?? rgb(0, 0, 0),
    })
    y -= (options.size ?? 10) * 1.5
  }

  line(invoice.sandbox ? 'Invoice (test mode: no real payment)' : 'Invoice', { font: bold, size: 22 })
  y -= 8
  line(`Invoice number: ${invoice.number}`, { font: bold })
  line(`Date: ${invoice.issuedAt.toISOString().slice(0, 10)}`)
  y -= 12
  line('From', { font: bold, colour: grey })
  line(invoice.seller.name)
  for (const part of invoice.seller.address) line(part)
  if (invoice.seller.vatId) line(`VAT ID: ${invoice.seller.vatId}`)
  if (invoice.seller.registrationId) line(`Registration: ${invoice.seller.registrationId}`)
  line(invoice.seller.email)
  y -= 12
  line('Bill to', { font: bold, colour: grey })
  if (invoice.buyer) {
    line(invoice.buyer.name)
    for (const part of invoice.buyer.address.split('\n')) line(part)
    if (invoice.buyer.taxId) line(`Tax ID: ${invoice.buyer.taxId}`)
  } else line('(no billing details given)', { colour: grey })
  y -= 20
  line('Description', { font: bold })
  y += 15
  line('Amount', { font: bold, x: 420 })
  page.drawLine({ start: { x: 56, y: y + 10 }, end: { x: 539, y: y + 10 }, thickness: 0.5, color: grey })
  line(invoice.item)
  y += 15
  line(invoice.amount, { x: 420 })
  page.drawLine({ start: { x: 56, y: y + 10 }, end: { x: 539, y: y + 10 }, thickness: 0.5, color: grey })
  line(`Total paid: ${invoice.amount}`, { font: bold, x: 420 })
  y -= 12
  if (invoice.paidWith) line(`Paid with: ${invoice.paidWith}`)
  line(`Purchase: ${invoice.purchaseId}`, { colour: grey })
  if (invoice.paymentId) line(`Payment: ${invoice.paymentId}`, { colour: grey })
  if (invoice.receiptUrl) line(`Payment service receipt: ${invoice.receiptUrl}`, { colour: grey, size: 8 })
  return pdf.save()
}

function write(
  page: PDFPage,
  font: PDFFont,
  text: string,
  options: { x: number; y: number; size: number; color: ReturnType<(typeof import('pdf-lib'))['rgb']> },
) {
  page.drawText(text, { ...options, font })
}

/** The text with every character the font cannot encode replaced by `?`, so a stray one never fails the document. */
function printable(font: PDFFont, text: string): string {
  return [...text]
    .map((char) => {
      try {
        font.encodeText(char)
        return char
      } catch {
        return '?'
      }
    })
    .join('')
}
