import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { Select } from '~/components/form/select-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Skeleton } from '~/components/ui/skeleton'
import type { SpendLimit, SpendLimitPeriod, SpendLimitUnit } from '~/contracts/spend-limits'
import { accountApi } from '~/lib/auth/account-api'
import { useFormat } from '~/lib/format'
import { notify } from '../notify'
import { toastError } from '../queries'
import { parseLimitAmount } from './limit-amount'

const limitsKey = (keyId: string) => ['account', 'keys', keyId, 'limits'] as const

/**
 * The "Spend limits" part of an account key's controls: the limits the ledger enforces on every debit (README
 * "Per-key controls"), each with what it counted in its period, and a form to add one.
 */
export function SpendLimitsSection({ keyId }: { keyId: string }) {
  const { t } = useLingui()
  const format = useFormat()
  const queryClient = useQueryClient()
  const id = useId()
  const limits = useQuery({ queryKey: limitsKey(keyId), queryFn: () => accountApi.spendLimits(keyId) })
  const refresh = () => queryClient.invalidateQueries({ queryKey: limitsKey(keyId) })
  const remove = useMutation({
    mutationFn: (limitId: string) => accountApi.removeSpendLimit(keyId, limitId),
    onSuccess: async () => {
      await refresh()
      notify.success(t`Spend limit removed.`)
    },
    onError: toastError,
  })

  const measure = (unit: SpendLimitUnit, n: number) =>
    unit === 'tokens' ? t`${format.tokens(n)} tokens` : format.dollars(n)
  const perPeriod = (limit: SpendLimit) => {
    const amount = measure(limit.unit, limit.amount)
    if (limit.period === 'day') return t`${amount} a day`
    if (limit.period === 'week') return t`${amount} a week`
    return t`${amount} a month`
  }

  return (
    <section
      className="flex flex-col gap-3 rounded-md border p-3"
      aria-labelledby={`${id}-title`}
      data-testid="spend-limits"
    >
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-title`} className="font-medium">
          <Trans>Spend limits</Trans>
        </h3>
        <p className="text-sm text-muted-foreground">
          <Trans>
            The most this key may spend in a day, a week (from Monday) or a month, UTC. Dollars are counted at the price
            its tokens were bought at. A request past a limit is refused until the limit resets.
          </Trans>
        </p>
      </div>
      {limits.isError ? (
        <p role="alert" className="text-sm text-muted-foreground">
          <Trans>The spend limits could not be loaded.</Trans>
        </p>
      ) : !limits.data ? (
        <Skeleton className="h-16 w-full rounded-md" />
      ) : limits.data.limits.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>No spend limits yet.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-2">
          {limits.data.limits.map((limit) => {
            const used = measure(limit.unit, limit.used)
            const resets = format.dateTime(limit.resets_at)
            return (
              <li
                key={limit.id}
                className="flex flex-wrap items-center justify-between gap-2 border-b pb-2 last:border-b-0"
                data-testid="spend-limit"
              >
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="font-medium tabular-nums">{perPeriod(limit)}</span>
                  <span className="text-sm text-muted-foreground tabular-nums">
                    <Trans>
                      Used {used}; resets {resets}.
                    </Trans>
                    {limit.alert_percent !== null && (
                      <>
                        {' '}
                        <Trans>Alert at {limit.alert_percent}%.</Trans>
                      </>
                    )}
                  </span>
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => remove.mutate(limit.id)}
                  disabled={remove.isPending}
                  aria-label={t`Remove the limit of ${perPeriod(limit)}`}
                  data-testid="remove-spend-limit"
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            )
          })}
        </ul>
      )}
      <AddLimitForm keyId={keyId} onAdded={refresh} />
    </section>
  )
}

function AddLimitForm({ keyId, onAdded }: { keyId: string; onAdded: () => Promise<unknown> }) {
  const { t } = useLingui()
  const id = useId()
  const [amount, setAmount] = useState('')
  const [unit, setUnit] = useState<SpendLimitUnit>('tokens')
  const [period, setPeriod] = useState<SpendLimitPeriod>('month')
  const [alert, setAlert] = useState('')
  const [errors, setErrors] = useState<{ amount?: string; alert?: string }>({})
  const add = useMutation({
    mutationFn: (input: Parameters<typeof accountApi.addSpendLimit>[1]) => accountApi.addSpendLimit(keyId, input),
    onSuccess: async () => {
      await onAdded()
      setAmount('')
      setAlert('')
      notify.success(t`Spend limit added.`)
    },
    onError: toastError,
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = parseLimitAmount(amount, unit)
    const share = alert.trim() === '' ? null : Number(alert.trim().replace(/%$/, ''))
    const next = {
      amount: Number.isFinite(value) && value > 0 ? undefined : t`Enter an amount above 0.`,
      alert:
        share === null || (Number.isInteger(share) && share >= 1 && share <= 100)
          ? undefined
          : t`Enter a whole percentage from 1 to 100, or leave it empty.`,
    }
    setErrors(next)
    if (next.amount || next.alert) return
    add.mutate({ unit, amount: value, period, alert_percent: share, alert_email: null })
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label={t`Add a spend limit`}>
      <div className="grid gap-3 sm:grid-cols-4">
        <FormField id={`${id}-amount`} label={t`Amount`} error={errors.amount}>
          {(field) => (
            <Input
              {...field}
              inputMode="decimal"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              className="tabular-nums"
              data-testid="spend-limit-amount"
            />
          )}
        </FormField>
        <FormField id={`${id}-unit`} label={t`In`}>
          {(field) => (
            <Select
              {...field}
              value={unit}
              onChange={(event) => setUnit(event.target.value as SpendLimitUnit)}
              data-testid="spend-limit-unit"
            >
              <option value="tokens">{t`Tokens`}</option>
              <option value="usd">{t`US dollars`}</option>
            </Select>
          )}
        </FormField>
        <FormField id={`${id}-period`} label={t`Per`}>
          {(field) => (
            <Select
              {...field}
              value={period}
              onChange={(event) => setPeriod(event.target.value as SpendLimitPeriod)}
              data-testid="spend-limit-period"
            >
              <option value="day">{t`Day`}</option>
              <option value="week">{t`Week`}</option>
              <option value="month">{t`Month`}</option>
            </Select>
          )}
        </FormField>
        <FormField
          id={`${id}-alert`}
          label={t`Alert at (%)`}
          hint={t`Optional: one e-mail a period to the key's address.`}
          error={errors.alert}
        >
          {(field) => (
            <Input
              {...field}
              inputMode="numeric"
              placeholder="80"
              value={alert}
              onChange={(event) => setAlert(event.target.value)}
              className="tabular-nums"
              data-testid="spend-limit-alert"
            />
          )}
        </FormField>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={add.isPending} data-testid="add-spend-limit">
          {add.isPending ? <Trans>Adding…</Trans> : <Trans>Add limit</Trans>}
        </Button>
      </div>
    </form>
  )
}
