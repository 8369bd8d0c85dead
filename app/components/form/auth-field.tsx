import { useLingui } from '@lingui/react/macro'
import { useId, type ComponentProps, type ReactNode } from 'react'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import type { PasswordPolicy } from '~/contracts/account'
import { PasswordRules } from './password-rules'

/** A labelled input with an optional hint below it, linked for screen readers. */
export function AuthField({
  label,
  hint,
  ...input
}: { label: ReactNode; hint?: (id: string) => ReactNode } & ComponentProps<typeof Input>) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-describedby={hint ? hintId : undefined} {...input} />
      {hint?.(hintId)}
    </div>
  )
}

/** The e-mail field every sign-in form starts with. */
export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useLingui()
  return (
    <AuthField
      label={t`E-mail`}
      type="email"
      autoComplete="email"
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  )
}

/** A password being chosen (sign-up, reset), with the policy's rules ticked as it is typed. */
export function NewPasswordField({
  label,
  value,
  onChange,
  policy,
}: {
  label: string
  value: string
  onChange: (value: string) => void
  policy: PasswordPolicy
}) {
  return (
    <AuthField
      label={label}
      type="password"
      autoComplete="new-password"
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      hint={(id) => <PasswordRules id={id} password={value} policy={policy} />}
    />
  )
}
