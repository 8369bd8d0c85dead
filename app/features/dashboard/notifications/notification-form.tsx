import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { PlusIcon, XIcon } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import type { BalanceNotification } from '~/contracts/billing'
import { useAuth } from '~/lib/auth/auth-context'
import { useFormat } from '~/lib/format'
import { removeNotificationMutation, saveNotificationMutation } from '../queries'
import { maxThresholds, parseTokenAmount, validateNotificationForm } from './threshold-input'
import { useValidationText } from './validation-text'
import { notify } from '~/features/dashboard/notify'
import { HydratedForm } from '~/components/form/hydrated-form'

type Props = { apiKey: string; initial: BalanceNotification }

export function NotificationForm({ apiKey, initial }: Props) {
  const { t } = useLingui()
  const format = useFormat()
  const queryClient = useQueryClient()
  const translate = useValidationText()
  const ids = { email: useId(), thresholdsError: useId(), full: useId() }
  const [thresholds, setThresholds] = useState<string[]>(
    initial.thresholds.length ? initial.thresholds.map(format.tokens) : [''],
  )
  const { profile } = useAuth()
  // Spec: alerts default to the account's address when the key has none of its own yet.
  const [email, setEmail] = useState(initial.email ?? profile?.notificationEmail ?? profile?.email ?? '')
  const [errors, setErrors] = useState<{ thresholds?: string; email?: string }>({})
  const [emailTouched, setEmailTouched] = useState(false)
  const save = useMutation(saveNotificationMutation(queryClient))
  const remove = useMutation(removeNotificationMutation(queryClient))
  const active = initial.thresholds.length > 0

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const checked = validateNotificationForm({ thresholds, email })
    setEmailTouched(true)
    if (!checked.success) return setErrors(checked.errors)
    setErrors({})
    save.mutate({ apiKey, ...checked.output }, { onSuccess: () => notify.success(t`Balance alerts saved`) })
  }

  const removeAll = () =>
    remove.mutate(
      { apiKey },
      {
        onSuccess: () => {
          setThresholds([''])
          notify.success(t`Balance alerts removed`)
        },
      },
    )

  // The form refuses as one types, in the rule's own words, instead of only when saving.
  const check = (next: { thresholds: string[]; email: string }, showEmail = emailTouched) => {
    const checked = validateNotificationForm(next)
    const found = checked.success ? {} : checked.errors
    setErrors({ thresholds: found.thresholds, email: showEmail ? found.email : undefined })
  }
  const setRow = (index: number, text: string) => {
    const next = thresholds.map((row, i) => (i === index ? text : row))
    setThresholds(next)
    check({ thresholds: next, email })
  }
  // Typed digits are shown grouped in the interface language once the field is left ("1000000" → "1,000,000").
  const groupRow = (index: number) => {
    const amount = parseTokenAmount(thresholds[index])
    if (Number.isSafeInteger(amount) && amount > 0) setRow(index, format.tokens(amount))
  }
  const full = thresholds.length >= maxThresholds
  const addRow = () => {
    if (!full) setThresholds((rows) => [...rows, ''])
  }
  const removeRow = (index: number) => {
    const next = thresholds.length > 1 ? thresholds.filter((_, i) => i !== index) : ['']
    setThresholds(next)
    check({ thresholds: next, email })
  }

  return (
    <Card aria-labelledby="alerts-title">
      <CardHeader>
        <CardTitle id="alerts-title">
          <Trans>Balance alerts</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Get an e-mail when this key's balance falls below a threshold. Up to three thresholds; each alert is sent
            once per drop.
          </Trans>
        </CardDescription>
      </CardHeader>
      <HydratedForm onSubmit={submit} noValidate className="contents">
        <CardContent className="flex flex-col gap-4">
          <fieldset
            className="flex flex-col gap-2"
            aria-describedby={errors.thresholds ? ids.thresholdsError : undefined}
          >
            <legend className="mb-2 text-sm font-medium">
              <Trans>Thresholds (tokens)</Trans>
            </legend>
            {thresholds.map((row, index) => {
              const n = index + 1
              return (
                <div key={index} className="flex items-center gap-2">
                  <Input
                    data-testid={`threshold-${n}`}
                    inputMode="numeric"
                    aria-label={t`Threshold ${n} (tokens)`}
                    placeholder={format.tokens(1_000_000)}
                    value={row}
                    onChange={(event) => setRow(index, event.target.value)}
                    onBlur={() => groupRow(index)}
                    aria-invalid={errors.thresholds ? true : undefined}
                    className="max-w-56 tabular-nums"
                  />
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon"
                    onClick={() => removeRow(index)}
                    aria-label={t`Remove threshold ${n}`}
                  >
                    <XIcon aria-hidden="true" />
                  </Button>
                </div>
              )
            })}
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={addRow}
              disabled={full}
              aria-describedby={full ? ids.full : undefined}
              data-testid="add-threshold"
            >
              <PlusIcon aria-hidden="true" />
              <Trans>Add threshold</Trans>
            </Button>
            {full && (
              <p id={ids.full} className="text-xs text-muted-foreground" data-testid="thresholds-full">
                <Trans>A key can have at most {maxThresholds} thresholds.</Trans>
              </p>
            )}
            {errors.thresholds && (
              <p
                id={ids.thresholdsError}
                role="alert"
                className="text-sm text-destructive"
                data-testid="thresholds-error"
              >
                {translate(errors.thresholds)}
              </p>
            )}
          </fieldset>
          <FormField
            id={ids.email}
            label={<Trans>E-mail address for alerts</Trans>}
            error={errors.email && translate(errors.email)}
          >
            {(field) => (
              <Input
                {...field}
                data-testid="notification-email"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value)
                  if (emailTouched) check({ thresholds, email: event.target.value })
                }}
                onBlur={() => {
                  setEmailTouched(true)
                  check({ thresholds, email }, true)
                }}
                className="max-w-sm"
              />
            )}
          </FormField>
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={save.isPending} data-testid="save-notifications">
            {save.isPending ? <Trans>Saving…</Trans> : <Trans>Save alerts</Trans>}
          </Button>
          {active && (
            <Button
              type="button"
              variant="outline"
              onClick={removeAll}
              disabled={remove.isPending}
              data-testid="remove-notifications"
            >
              <Trans>Remove all alerts</Trans>
            </Button>
          )}
        </CardFooter>
      </HydratedForm>
    </Card>
  )
}
