import { Trans, useLingui } from '@lingui/react/macro'
import type { UsagePeriod } from './consumption-data'
import { FormField } from '~/components/form/form-field'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Select } from '~/components/form/select-field'
import { Meter } from '~/components/ui/meter'
import { Skeleton } from '~/components/ui/skeleton'
import { useFormat } from '~/lib/format'
import { usageSummaryQuery } from './summary-query'
import { SummaryTables } from './summary-tables'

/**
 * Requests, tokens and their cost for the period, per product and model, per key (an account's keys together,
 * or one of them) and per day, with the key's balance against a scale that says what it is.
 */
export function SummaryCard({ apiKey, range, days }: UsagePeriod) {
  const { t } = useLingui()
  const format = useFormat()
  const id = useId()
  const [keyId, setKeyId] = useState('')
  const summary = useQuery(usageSummaryQuery(apiKey, range, keyId))
  const data = summary.data
  const keys = data?.keys ?? []
  const totals = data?.totals

  return (
    <Card aria-labelledby="summary-title" data-testid="usage-summary">
      <CardHeader>
        <CardTitle id="summary-title">
          <Trans>Requests and cost</Trans>
        </CardTitle>
        <CardDescription>
          {totals ? (
            <Trans>
              <span data-testid="summary-requests">{format.tokens(totals.requests)}</span> requests answered,{' '}
              {format.tokens(totals.refused)} refused and {format.tokens(totals.failed)} failed in the last {days} days
              (UTC), using {format.tokens(totals.tokens)} tokens.
            </Trans>
          ) : (
            <Trans>Requests, tokens and what they cost, per product, model, key and day.</Trans>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {keys.length > 1 && (
          <FormField id={`${id}-key`} label={<Trans>Keys</Trans>} className="max-w-sm">
            {(field) => (
              <Select
                {...field}
                value={keyId}
                onChange={(event) => setKeyId(event.target.value)}
                data-testid="summary-key"
              >
                <option value="">{t`All keys of the account, together`}</option>
                {keys.map((key) => (
                  <option key={key.key_id} value={key.key_id}>
                    {key.label}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        )}
        {summary.isError ? (
          <p role="alert" className="text-sm text-muted-foreground">
            <Trans>Usage could not be loaded ({summary.error.message}).</Trans>
          </p>
        ) : !data ? (
          <Skeleton className="h-64 w-full rounded-md" />
        ) : (
          <>
            <BalanceBar balance={data.balance} days={days} />
            <p className="text-sm" data-testid="summary-price">
              {data.price && totals && totals.cost !== null ? (
                data.price.transferred > 0 ? (
                  <Trans>
                    These tokens cost {format.money(totals.cost, data.price.currency)}, at{' '}
                    {format.money(data.price.per_million_tokens, data.price.currency)} per million tokens: what the{' '}
                    {data.price.purchases} purchases behind this balance cost, {data.price.transferred} of them made
                    with keys whose balance was transferred here.
                  </Trans>
                ) : keyId || keys.length <= 1 ? (
                  <Trans>
                    These tokens cost {format.money(totals.cost, data.price.currency)}, at{' '}
                    {format.money(data.price.per_million_tokens, data.price.currency)} per million tokens: what this
                    key's {data.price.purchases} purchases cost.
                  </Trans>
                ) : (
                  <Trans>
                    These tokens cost {format.money(totals.cost, data.price.currency)}, at{' '}
                    {format.money(data.price.per_million_tokens, data.price.currency)} per million tokens: what the
                    account's {data.price.purchases} purchases cost.
                  </Trans>
                )
              ) : (
                <Trans>No purchase to price these tokens: those of the free pack cost nothing.</Trans>
              )}
            </p>
            {data.by_model.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="summary-empty">
                <Trans>No requests in this period yet.</Trans>
              </p>
            ) : (
              <SummaryTables summary={data} showKeys={!keyId && keys.length > 1} />
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}

function BalanceBar({
  balance,
  days,
}: {
  balance: { current: number; scale: number; basis: 'largest_balance' | 'last_purchase' }
  days: number
}) {
  const { t } = useLingui()
  const format = useFormat()
  const balanceText = format.tokens(balance.current)
  const scaleText = format.tokens(balance.scale)
  return (
    <div
      className="flex flex-col gap-2"
      data-testid="summary-balance"
      data-scale={balance.scale}
      data-basis={balance.basis}
    >
      <Meter
        value={balance.current}
        max={balance.scale}
        valueText={t`${balanceText} of ${scaleText} tokens`}
        aria-label={t`Balance`}
      />
      <p className="text-xs text-muted-foreground">
        {balance.basis === 'last_purchase' ? (
          <Trans>
            Balance {balanceText} tokens, against the {scaleText} tokens of this key's last purchase.
          </Trans>
        ) : (
          <Trans>
            Balance {balanceText} tokens, against the largest balance this key held in the last {days} days ({scaleText}
            ).
          </Trans>
        )}
      </p>
    </div>
  )
}
