import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { maxTokens } from '~/contracts/common'
import type { Pack } from '~/contracts/catalogue'
import type { RechargeStatus } from '~/contracts/payments'
import { Select } from '~/components/form/select-field'
import { useLocale } from '~/lib/use-locale'
import { useFormat } from '~/lib/format'
import { notify } from '../notify'
import { refreshKey } from '../queries'
import { autoRechargeMutation } from '../billing/queries'
import { usePaymentErrorMessage } from '~/lib/payment-error'
import { checkoutReturnUrls } from '../billing/return-urls'
import { HydratedForm } from '~/components/form/hydrated-form'

type PriceId = 'price_tokens_1b' | 'price_tokens_11b'

/**
 * The settings: below which balance to buy which pack. A key with a saved card (saved alone, or at a
 * purchase) uses it at once; any other key saves a card in a checkout that charges nothing, or buys the pack
 * now in one that keeps the card. Auto-recharge starts when the card is saved or the payment credited.
 */
export function RechargeForm({ apiKey, status, packs }: { apiKey: string; status: RechargeStatus; packs: Pack[] }) {
  const { t } = useLingui()
  const format = useFormat()
  const locale = useLocale()
  const ids = { threshold: useId(), pack: useId(), error: useId() }
  const queryClient = useQueryClient()
  const save = useMutation(autoRechargeMutation())
  const paymentError = usePaymentErrorMessage()
  const priced = packs.filter((pack) => pack.price > 0)
  const [threshold, setThreshold] = useState(status.threshold ? String(status.threshold) : '1000000')
  const [priceId, setPriceId] = useState<string>(status.price_id ?? 'price_tokens_1b')
  const [error, setError] = useState<string>()
  const pack = priced.find((p) => p.price_id === priceId)

  // Which button sent the form: save a card alone, or buy the pack now.
  const [cardOnly, setCardOnly] = useState(true)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = Number(threshold.replace(/[\s,._']/g, ''))
    if (!Number.isSafeInteger(value) || value < 1 || value > maxTokens)
      return setError(t`The threshold must be a whole number of tokens, at least 1.`)
    if (!pack) return setError(t`Choose a pack.`)
    setError(undefined)
    save.mutate(
      {
        apiKey,
        price_id: pack.price_id as PriceId,
        ...checkoutReturnUrls(locale, 'auto-recharge'),
        ...(status.eligible ? {} : { save_card_only: cardOnly }),
        metadata: { auto_recharge: true, threshold: value, currency: pack.currency },
      },
      {
        onSuccess: ({ url }) => {
          if (!status.eligible) return window.location.assign(url)
          void refreshKey(queryClient, apiKey)
          notify.success(status.enabled ? t`Auto-recharge saved.` : t`Auto-recharge is on.`)
        },
        onError: (failure) => setError(paymentError(failure)),
      },
    )
  }

  return (
    <Card aria-labelledby="recharge-form-title">
      <CardHeader>
        <CardTitle id="recharge-form-title">
          {status.enabled ? <Trans>Change auto-recharge</Trans> : <Trans>Turn on auto-recharge</Trans>}
        </CardTitle>
        <CardDescription>
          {status.eligible ? (
            <Trans>
              When a request takes the balance below the threshold, the pack is bought with your saved card, once.
            </Trans>
          ) : (
            <Trans>
              Auto-recharge needs a saved card. Save one now (nothing is charged until auto-recharge buys a pack), or
              buy the pack now with a card that is kept.
            </Trans>
          )}
        </CardDescription>
      </CardHeader>
      <HydratedForm onSubmit={submit} noValidate className="contents">
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField id={ids.threshold} label={<Trans>Recharge when the balance falls below (tokens)</Trans>}>
            {(field) => (
              <Input
                {...field}
                inputMode="numeric"
                value={threshold}
                onChange={(e) => setThreshold(e.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? ids.error : undefined}
                data-testid="recharge-threshold"
              />
            )}
          </FormField>
          <FormField id={ids.pack} label={<Trans>Pack to buy</Trans>}>
            {(field) => (
              <Select
                {...field}
                value={priceId}
                onChange={(e) => setPriceId(e.target.value)}
                data-testid="recharge-pack"
              >
                {priced.map((option) => (
                  <option key={option.price_id} value={option.price_id}>
                    {t`${format.tokens(option.token_quantity)} tokens for ${format.money(option.price, option.currency)}`}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          {error && (
            <p
              id={ids.error}
              role="alert"
              className="text-sm text-destructive sm:col-span-2"
              data-testid="recharge-error"
            >
              {error}
            </p>
          )}
        </CardContent>
        <CardFooter className="flex-wrap gap-2">
          {status.eligible ? (
            <Button type="submit" disabled={save.isPending} data-testid="save-recharge">
              {status.enabled ? (
                <Trans>Save</Trans>
              ) : !status.card ? (
                <Trans>Save and turn on</Trans>
              ) : (
                <Trans>Use the card ending {status.card.last4}</Trans>
              )}
            </Button>
          ) : (
            <>
              <Button
                type="submit"
                disabled={save.isPending}
                onClick={() => setCardOnly(true)}
                data-testid="save-card-recharge"
              >
                <Trans>Save a card and turn on</Trans>
              </Button>
              <Button
                type="submit"
                variant="outline"
                disabled={save.isPending}
                onClick={() => setCardOnly(false)}
                data-testid="save-recharge"
              >
                <Trans>Buy the pack and turn on</Trans>
              </Button>
            </>
          )}
        </CardFooter>
      </HydratedForm>
    </Card>
  )
}
