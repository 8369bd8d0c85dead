import { useLingui } from '@lingui/react/macro'
import { useFormat } from '~/lib/format'
import type { ControlsProblem } from './controls-input'

/** Each problem of the controls form in plain words, in the interface language. */
export function useProblemText(): (problem: ControlsProblem) => string {
  const { t } = useLingui()
  const format = useFormat()
  return (problem) => {
    switch (problem.kind) {
      case 'cap-not-number': {
        const example = format.tokens(1_000_000)
        return t`Enter the cap as a whole number of tokens, such as ${example}.`
      }
      case 'cap-too-small':
        return t`A cap must be at least 1 token. Leave the field empty for no cap.`
      case 'cap-too-large': {
        const max = format.tokens(problem.max)
        return t`A cap can be at most ${max} tokens.`
      }
      case 'daily-over-monthly':
        return t`The daily cap cannot be more than the monthly cap.`
      case 'no-product':
        return t`Choose at least one product, or revoke the key if it should not be used at all.`
      case 'no-model':
        return t`Choose at least one model.`
      case 'expiry-past':
        return t`Choose today or a later day.`
      case 'range-invalid': {
        const range = problem.range
        return t`“${range}” is not an IPv4 or IPv6 address or range (such as 203.0.113.0/24 or 2001:db8::/32).`
      }
      case 'too-many-ranges': {
        const max = problem.max
        return t`Enter at most ${max} addresses or ranges.`
      }
    }
  }
}
