import { brand } from '#config'
import { topUpPageUrl } from './alert-mail'

export interface ReversalFacts {
  reason: 'refund' | 'dispute'
  /** The key as its holder sees it (`lds_…1234`). */
  key: string
  /** Whether the tokens came to this key by a balance transfer from the key the purchase was made for. */
  transferred: boolean
  purchaseTokens: number
  taken: number
  debited: number
  owed: number
  balance: number
}

const count = (n: number) => n.toLocaleString('en-US')

/** The mail that tells a key's owner a refund or dispute took tokens back from it, and what the key owes now. */
export function reversalMail(facts: ReversalFacts): { subject: string; text: string } {
  const what = facts.reason === 'refund' ? 'A refund' : 'A dispute'
  const where = facts.transferred
    ? `your API key ${facts.key}, which holds that purchase's tokens now (they came to it by a balance transfer)`
    : `your API key ${facts.key}`
  const lines = [
    `${what} of a purchase of ${count(facts.purchaseTokens)} tokens took ${count(facts.taken)} tokens back from ${where}.`,
    `${count(facts.debited)} tokens were taken from its balance, which is now ${count(facts.balance)} tokens.`,
  ]
  if (facts.owed > 0)
    lines.push(
      `${count(facts.owed)} tokens had already been used: they are owed, and the key's next purchase or incoming transfer pays them first.`,
    )
  lines.push(`Your balance and purchases: ${topUpPageUrl()}`)
  return {
    subject: `${brand.name}: ${count(facts.taken)} tokens taken back from your API key after a ${facts.reason}`,
    text: lines.join('\n\n') + '\n',
  }
}
