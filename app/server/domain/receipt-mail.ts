import { brand } from '#config'
import { topUpPageUrl } from './alert-mail'

export interface ReceiptFacts {
  invoice: string
  tokens: number
  /** In minor units (cents), as the purchase keeps it. */
  amount: number
  currency: string
  card: { brand: string; last4: string } | null
  paidAt: Date
  purchaseId: string
  /** The key as its holder sees it (`lds_…1234`). */
  key: string
  autoRecharge: boolean
  sandbox: boolean
}

const count = (n: number) => n.toLocaleString('en-US')
const cardName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)

/** The receipt a buyer gets once a purchase is credited: what was bought, for how much, and where its invoice is. */
export function receiptMail(facts: ReceiptFacts): { subject: string; text: string } {
  const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: facts.currency }).format(
    facts.amount / 100,
  )
  const lines = [
    facts.autoRecharge
      ? `Auto-recharge bought tokens for your API key ${facts.key}. Thank you.`
      : `Thank you for your purchase. The tokens are on your API key ${facts.key} now.`,
    [
      `Item: ${count(facts.tokens)} API tokens`,
      `Amount: ${money}`,
      ...(facts.card ? [`Paid with: ${cardName(facts.card.brand)} ending ${facts.card.last4}`] : []),
      `Date: ${facts.paidAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      `Invoice: ${facts.invoice}`,
      `Purchase: ${facts.purchaseId}`,
    ].join('\n'),
    `Download the invoice (PDF) and see every purchase in the dashboard's Billing tab: ${topUpPageUrl()}`,
  ]
  if (facts.sandbox) lines.push('This was a test-mode payment in the sandbox: no card was charged and no money moved.')
  return {
    subject: `${brand.name}: receipt for ${count(facts.tokens)} API tokens (${facts.invoice})`,
    text: lines.join('\n\n') + '\n',
  }
}
