import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { LockIcon } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import type { CardEntry } from '~/contracts/sandbox-cards'

/** The card fields of the sandbox's checkout, as a hosted checkout asks for them. */
export function CardForm({
  askEmail,
  pay,
  busy,
  saveOnly = false,
  error,
  entry,
  onChange,
}: {
  askEmail: boolean
  pay: (entry: CardEntry) => void
  busy: boolean
  /** A setup-mode checkout: the card is saved, nothing is charged. */
  saveOnly?: boolean
  error: string | undefined
  entry: CardEntry
  onChange: (entry: CardEntry) => void
}) {
  const { t } = useLingui()
  const ids = { email: useId(), number: useId(), expiry: useId(), cvc: useId(), error: useId() }
  const [touched, setTouched] = useState(false)
  const field = (name: keyof CardEntry) => ({
    value: entry[name] ?? '',
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange({ ...entry, [name]: event.target.value }),
    'aria-describedby': error && touched ? ids.error : undefined,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    pay(entry)
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      {askEmail && (
        <FormField id={ids.email} label={<Trans>E-mail</Trans>}>
          {(a11y) => (
            <Input {...a11y} type="email" autoComplete="email" data-testid="sandbox-email" {...field('email')} />
          )}
        </FormField>
      )}
      <FormField id={ids.number} label={<Trans>Card number</Trans>}>
        {(a11y) => (
          <Input
            {...a11y}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4242 4242 4242 4242"
            data-testid="sandbox-card"
            {...field('number')}
          />
        )}
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField id={ids.expiry} label={<Trans>Expiry (MM/YY)</Trans>}>
          {(a11y) => (
            <Input
              {...a11y}
              autoComplete="cc-exp"
              placeholder="12/34"
              data-testid="sandbox-expiry"
              {...field('expiry')}
            />
          )}
        </FormField>
        <FormField id={ids.cvc} label={<Trans>CVC</Trans>}>
          {(a11y) => (
            <Input
              {...a11y}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              data-testid="sandbox-cvc"
              {...field('cvc')}
            />
          )}
        </FormField>
      </div>
      {error && (
        <p id={ids.error} role="alert" className="text-sm text-destructive" data-testid="sandbox-error">
          {error}
        </p>
      )}
      <Button type="submit" size="lg" disabled={busy} data-testid="sandbox-pay">
        <LockIcon aria-hidden="true" />
        {saveOnly ? <Trans>Save the card (test mode)</Trans> : <Trans>Pay (test mode)</Trans>}
      </Button>
      <p className="text-xs text-muted-foreground">{t`This sandbox never sees a real card: use one of the test cards below.`}</p>
    </form>
  )
}
