import { useLingui } from '@lingui/react/macro'
import type { ComponentProps, ReactNode } from 'react'
import { Input } from '~/components/ui/input'
import type { PasswordPolicy } from '~/contracts/account'
import { FormField } from './form-field'
import { PasswordRules } from './password-rules'

/** A labelled input of the sign-in forms (the one field set, FormField), with an optional hint below it. */
export function AuthField({
  label,
  hint,
  ...input
}: { label: ReactNode; hint?: (id: string) => ReactNode } & ComponentProps<typeof Input>) {
  return (
    <FormField label={label} hint={hint}>
      {(field) => <Input {...field} {...input} />}
    </FormField>
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
