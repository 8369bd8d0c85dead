import { useLingui } from '@lingui/react/macro'
import type { CardProblem } from '~/contracts/sandbox-cards'

/** Why the sandbox did not take a card, in the interface language. */
export function useCardProblem(): (problem: CardProblem) => string {
  const { t } = useLingui()
  const messages: Record<CardProblem, string> = {
    email: t`Enter the e-mail address the receipt goes to.`,
    number: t`This card number is not valid.`,
    not_test_card: t`This sandbox takes only the test cards listed below.`,
    expiry: t`Enter the expiry date as MM/YY.`,
    expired: t`This card has expired.`,
    cvc: t`Enter the three-digit security code.`,
  }
  return (problem) => messages[problem]
}
