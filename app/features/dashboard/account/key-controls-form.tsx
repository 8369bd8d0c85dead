import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Skeleton } from '~/components/ui/skeleton'
import { Textarea } from '~/components/ui/textarea'
import type { KeyControls } from '~/contracts/key-controls'
import { accountApi } from '~/lib/auth/account-api'
import { useFormat } from '~/lib/format'
import { parseTokenAmount } from '../notifications/threshold-input'
import { notify } from '../notify'
import { servedModelsQuery, toastError } from '../queries'
import { formValuesOf, validateControls, type ControlsErrors, type ControlsFormValues } from './controls-input'
import { ProductChoices, ModelChoices } from './control-choices'
import { useProblemText } from './controls-text'

const controlsKey = (keyId: string) => ['account', 'keys', keyId, 'controls'] as const

/** The "Controls" section of an account key: caps, scopes, expiry and address ranges (README "Per-key controls"). */
export function KeyControlsSection({ keyId, label }: { keyId: string; label: string }) {
  const controls = useQuery({ queryKey: controlsKey(keyId), queryFn: () => accountApi.keyControls(keyId) })
  const served = useQuery(servedModelsQuery())
  if (controls.isError || served.isError)
    return (
      <p role="alert" className="text-sm text-muted-foreground">
        <Trans>The controls could not be loaded.</Trans>
      </p>
    )
  if (!controls.data || !served.data) return <Skeleton className="h-96 w-full rounded-md" />
  return (
    <ControlsForm
      keyId={keyId}
      label={label}
      initial={controls.data}
      servedModels={served.data.data.map((model) => model.id)}
    />
  )
}

function ControlsForm({
  keyId,
  label,
  initial,
  servedModels,
}: {
  keyId: string
  label: string
  initial: KeyControls
  servedModels: string[]
}) {
  const { t } = useLingui()
  const format = useFormat()
  const queryClient = useQueryClient()
  const problemText = useProblemText()
  const id = useId()
  const [values, setValues] = useState<ControlsFormValues>(() => formValuesOf(initial, servedModels, format.tokens))
  const [errors, setErrors] = useState<ControlsErrors>({})
  const [tried, setTried] = useState(false)
  const save = useMutation({
    mutationFn: (output: Parameters<typeof accountApi.setKeyControls>[1]) => accountApi.setKeyControls(keyId, output),
    onSuccess: (saved) => {
      queryClient.setQueryData(controlsKey(keyId), saved)
      notify.success(t`Controls of ${label} saved.`)
    },
    onError: toastError,
  })

  // Once a save was refused, the form re-checks as one types, so an error goes away when it is fixed.
  const update = (next: Partial<ControlsFormValues>) => {
    const merged = { ...values, ...next }
    setValues(merged)
    if (tried) {
      const checked = validateControls(merged, servedModels)
      setErrors(checked.success ? {} : checked.errors)
    }
  }
  // Digits typed plainly are shown grouped in the interface language once the field is left.
  const group = (field: 'dailyCap' | 'monthlyCap') => {
    const amount = parseTokenAmount(values[field])
    if (Number.isSafeInteger(amount) && amount > 0) update({ [field]: format.tokens(amount) })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTried(true)
    const checked = validateControls(values, servedModels)
    if (!checked.success) return setErrors(checked.errors)
    setErrors({})
    save.mutate(checked.output)
  }
  const error = (field: keyof ControlsErrors) => (errors[field] ? problemText(errors[field]) : undefined)

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-md border p-3"
      aria-labelledby={`${id}-title`}
      data-testid="key-controls"
    >
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-title`} className="font-medium">
          <Trans>Controls</Trans>
        </h3>
        <p className="text-sm text-muted-foreground tabular-nums" data-testid="controls-spent">
          <Trans>
            Spent today: {format.tokens(initial.spent_today)} tokens; this month:{' '}
            {format.tokens(initial.spent_this_month)} tokens (UTC).
          </Trans>
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id={`${id}-daily`}
          label={t`Daily cap (tokens)`}
          hint={t`Empty for no cap. Resets at midnight UTC.`}
          error={error('dailyCap')}
        >
          {(field) => (
            <Input
              {...field}
              inputMode="numeric"
              placeholder={format.tokens(1_000_000)}
              value={values.dailyCap}
              onChange={(event) => update({ dailyCap: event.target.value })}
              onBlur={() => group('dailyCap')}
              className="tabular-nums"
              data-testid="daily-cap"
            />
          )}
        </FormField>
        <FormField
          id={`${id}-monthly`}
          label={t`Monthly cap (tokens)`}
          hint={t`Empty for no cap. Resets on the first of the month, UTC.`}
          error={error('monthlyCap')}
        >
          {(field) => (
            <Input
              {...field}
              inputMode="numeric"
              placeholder={format.tokens(20_000_000)}
              value={values.monthlyCap}
              onChange={(event) => update({ monthlyCap: event.target.value })}
              onBlur={() => group('monthlyCap')}
              className="tabular-nums"
              data-testid="monthly-cap"
            />
          )}
        </FormField>
      </div>
      <ProductChoices
        chosen={values.products}
        onChange={(products) => update({ products })}
        error={error('products')}
      />
      <ModelChoices
        models={servedModels}
        chosen={values.models}
        onChange={(models) => update({ models })}
        error={error('models')}
      />
      <FormField
        id={`${id}-expiry`}
        label={t`Last day the key works`}
        hint={t`Empty for no expiry. The key stops at the end of this day, UTC.`}
        error={error('expiresOn')}
      >
        {(field) => (
          <Input
            {...field}
            type="date"
            value={values.expiresOn}
            onChange={(event) => update({ expiresOn: event.target.value })}
            className="max-w-56"
            data-testid="expires-on"
          />
        )}
      </FormField>
      <FormField
        id={`${id}-ranges`}
        label={t`Allowed client addresses`}
        hint={t`One address or range a line, IPv4 or IPv6 (such as 203.0.113.0/24 or 2001:db8::/32). Empty for anywhere.`}
        error={error('ranges')}
      >
        {(field) => (
          <Textarea
            {...field}
            value={values.ranges}
            onChange={(event) => update({ ranges: event.target.value })}
            className="font-mono text-sm"
            spellCheck={false}
            data-testid="address-ranges"
          />
        )}
      </FormField>
      <div>
        <Button type="submit" size="sm" disabled={save.isPending} data-testid="save-controls">
          {save.isPending ? <Trans>Saving…</Trans> : <Trans>Save controls</Trans>}
        </Button>
      </div>
    </form>
  )
}
