import { useLingui } from '@lingui/react/macro'
import { invalidThresholdsMessage } from '~/lib/balance-notification-schema'

/** The shared schema speaks English (the server answers with it); the form shows the same rule translated. */
export function useValidationText(): (message: string) => string {
  const { t } = useLingui()
  const known: Record<string, string> = {
    [invalidThresholdsMessage]: t`Invalid thresholds: Must be array with max 3 values`,
    'Each threshold must be a number': t`Each threshold must be a number`,
    'Each threshold must be a whole number of tokens': t`Each threshold must be a whole number of tokens`,
    'Each threshold must be at least 1 token': t`Each threshold must be at least 1 token`,
    'Threshold is too large': t`Threshold is too large`,
    'An e-mail address is required': t`An e-mail address is required`,
    'Enter a valid e-mail address': t`Enter a valid e-mail address`,
  }
  return (message) => known[message] ?? message
}
