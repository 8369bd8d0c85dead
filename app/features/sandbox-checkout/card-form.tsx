import { Trans, useLingui } from '@lingui/react/macro'
import { LockIcon } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
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
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.email}>
            <Trans>E-mail</Trans>
          </Label>
          <Input id={ids.email} type="email" autoComplete="email" data-testid="sandbox-email" {...field('email')} />
        </div>
      )}
      <div className="flex flex-col gap-2">
        <Label htmlFor={ids.number}>
          <Trans>Card number</Trans>
        </Label>
        <Input
          id={ids.number}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="4242 4242 4242 4242"
          data-testid="sandbox-card"
          {...field('number')}
        />
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.expiry}>
            <Trans>Expiry (MM/YY)</Trans>
          </Label>
          <Input
            id={ids.expiry}
            autoComplete="cc-exp"
            placeholder="12/34"
            data-testid="sandbox-expiry"
            {...field('expiry')}
          />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.cvc}>
            <Trans>CVC</Trans>
          </Label>
          <Input
            id={ids.cvc}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            data-testid="sandbox-cvc"
            {...field('cvc')}
          />
        </div>
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
