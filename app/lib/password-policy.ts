import type { PasswordPolicy } from '~/contracts/account'

export type PasswordRule = 'minLength' | 'maxLength' | 'lower' | 'upper' | 'numeric' | 'symbol'

const classes: Record<'lower' | 'upper' | 'numeric' | 'symbol', RegExp> = {
  lower: /\p{Ll}/u,
  upper: /\p{Lu}/u,
  numeric: /\p{Nd}/u,
  symbol: /[^\p{L}\p{Nd}]/u,
}

/**
 * Spec §5: the rules a password fails, in the order a form lists them. One function for the browser (which
 * shows them while the user types) and the server (which refuses them), so the two cannot disagree.
 */
export function unmetPasswordRules(password: string, policy: PasswordPolicy): PasswordRule[] {
  const unmet: PasswordRule[] = []
  const length = [...password].length
  if (length < policy.minLength) unmet.push('minLength')
  if (policy.maxLength !== null && length > policy.maxLength) unmet.push('maxLength')
  for (const rule of policy.require) if (!classes[rule].test(password)) unmet.push(rule)
  return unmet
}
