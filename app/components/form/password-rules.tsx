import { Trans } from '@lingui/react/macro'
import { CheckIcon, CircleIcon } from 'lucide-react'
import type { PasswordPolicy } from '~/contracts/account'
import { unmetPasswordRules, type PasswordRule } from '~/lib/password-policy'
import { cn } from '~/lib/utils'

function RuleText({ rule, policy }: { rule: PasswordRule; policy: PasswordPolicy }) {
  const min = policy.minLength
  const max = policy.maxLength ?? 0
  switch (rule) {
    case 'minLength':
      return <Trans>At least {min} characters</Trans>
    case 'maxLength':
      return <Trans>At most {max} characters</Trans>
    case 'lower':
      return <Trans>A lower-case letter</Trans>
    case 'upper':
      return <Trans>An upper-case letter</Trans>
    case 'numeric':
      return <Trans>A digit</Trans>
    case 'symbol':
      return <Trans>A symbol or space</Trans>
  }
}

/** The policy's rules (spec §5), each ticked as the password meets it; the server checks the same rules. */
export function PasswordRules({ id, password, policy }: { id: string; password: string; policy: PasswordPolicy }) {
  if (policy.enforcement === 'OFF') return null
  const rules: PasswordRule[] = [
    'minLength',
    ...(policy.maxLength !== null ? ['maxLength' as const] : []),
    ...policy.require,
  ]
  const unmet = new Set(unmetPasswordRules(password, policy))
  return (
    <ul id={id} className="flex flex-col gap-1 text-sm" data-testid="password-rules">
      {rules.map((rule) => {
        const met = !unmet.has(rule)
        const Icon = met ? CheckIcon : CircleIcon
        return (
          <li key={rule} className={cn('flex items-center gap-2', met ? 'text-foreground' : 'text-muted-foreground')}>
            <Icon aria-hidden="true" className={cn('size-4 shrink-0', met && 'text-primary')} />
            <span>
              <RuleText rule={rule} policy={policy} />
              <span className="sr-only">{met ? ' ✓' : ''}</span>
            </span>
          </li>
        )
      })}
    </ul>
  )
}

/** Whether the form may send this password: ENFORCE holds it back until every rule is met. */
export function passwordAllowed(password: string, policy: PasswordPolicy): boolean {
  return policy.enforcement !== 'ENFORCE' || unmetPasswordRules(password, policy).length === 0
}
