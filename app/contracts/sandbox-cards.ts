/**
 * The sandbox's test cards: Stripe's own test numbers, behaving as they do in Stripe's test mode. Any future
 * expiry and any three-digit CVC are accepted. Shared by the sandbox provider, which charges them, and its
 * checkout page, which lists them.
 */
export const testCards = {
  /** Succeeds, on-session and off-session. */
  succeeds: '4242424242424242',
  /** Declined at checkout. */
  declined: '4000000000000002',
  /** Needs 3-D Secure at checkout; off-session it is refused with `authentication_required`. */
  authenticate: '4000002500003155',
  /** Succeeds at checkout and is saved, but declines every off-session charge afterwards. */
  declinesLater: '4000000000000341',
} as const

export type TestCard = keyof typeof testCards

export interface CardEntry {
  /** The buyer's e-mail, asked for when the checkout did not bring one (as Stripe's page does). */
  email?: string
  number: string
  /** `MM/YY`. */
  expiry: string
  cvc: string
}

export type CardCheck = { ok: true; card: TestCard; last4: string } | { ok: false; problem: CardProblem }
export type CardProblem = 'email' | 'number' | 'not_test_card' | 'expiry' | 'expired' | 'cvc'

function luhn(digits: string): boolean {
  let sum = 0
  for (let at = 0; at < digits.length; at++) {
    let digit = Number(digits[digits.length - 1 - at])
    if (at % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2
    sum += digit
  }
  return sum % 10 === 0
}

/** Reads a card as the checkout form sends it (spaces allowed), refusing anything but a valid test card. */
export function checkCard(entry: CardEntry, now = new Date()): CardCheck {
  const number = entry.number.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { ok: false, problem: 'number' }
  const card = (Object.keys(testCards) as TestCard[]).find((name) => testCards[name] === number)
  if (!card) return { ok: false, problem: 'not_test_card' }
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(entry.expiry.trim())
  if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) return { ok: false, problem: 'expiry' }
  // A card is good through the last day of its expiry month.
  if (new Date(Date.UTC(2000 + Number(expiry[2]), Number(expiry[1]), 1)) <= now)
    return { ok: false, problem: 'expired' }
  if (!/^\d{3,4}$/.test(entry.cvc.trim())) return { ok: false, problem: 'cvc' }
  return { ok: true, card, last4: number.slice(-4) }
}
