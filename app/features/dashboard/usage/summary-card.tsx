import { Trans, useLingui } from '@lingui/react/macro'
import type { UsagePeriod } from './consumption-data'
import { FormField } from '~/components/form/form-field'
import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Select } from '~/components/form/select-field'
import { Meter } from '~/components/ui/meter'
import { Skeleton } from '~/components/ui/skeleton'
import { useAuth } from '~/lib/auth/auth-context'
import { useFormat } from '~/lib/format'
import { organisationUsageQuery, teamOrganisationsQuery } from './organisation-usage'
import { usageSummaryQuery } from './summary-query'
import { SummaryTables } from './summary-tables'

/**
 * Requests, tokens and their cost for the period, per product and model, per key (an account's keys together,
 * or one of them), per project and per day, with the balance against a scale that says what it is. A member of
 * an organisation can look at all of its keys instead (the scope): the key shown stays the key shown.
 */
export function SummaryCard({ apiKey, range, days }: UsagePeriod) {
  const { t } = useLingui()
  const format = useFormat()
  const id = useId()
  const [keyId, setKeyId] = useState('')
  const [scope, setScope] = useState('')
  const { status } = useAuth()
  const teams = useQuery(teamOrganisationsQuery(status === 'signed-in')).data ?? []
  const keySummary = useQuery({ ...usageSummaryQuery(apiKey, range, keyId), enabled: !scope })
  const teamSummary = useQuery({ ...organisationUsageQuery(scope, range, keyId), enabled: !!scope })
  const summary = scope ? teamSummary : keySummary
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
        {teams.length > 0 && (
          <FormField id={`${id}-scope`} label={<Trans>Usage of</Trans>} className="max-w-sm">
            {(field) => (
              <Select
                {...field}
                value={scope}
                onChange={(event) => {
                  setScope(event.target.value)
                  setKeyId('')
                }}
                data-testid="summary-scope"
              >
                <option value="">{t`This key and its account`}</option>
                {teams.map((team) => (
                  <option key={team.id} value={team.id}>
                    {t`Organisation: ${team.name}`}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        )}
        {keys.length > 1 && (
          <FormField id={`${id}-key`} label={<Trans>Keys</Trans>} className="max-w-sm">
            {(field) => (
              <Select
                {...field}
                value={keyId}
                onChange={(event) => setKeyId(event.target.value)}
                data-testid="summary-key"
              >
                <option value="">
                  {scope ? t`All keys of the organisation, together` : t`All keys of the account, together`}
                </option>
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
            <BalanceBar balance={data.balance} days={days} shared={!!scope} />
            <p className="text-sm" data-testid="summary-price">
              {data.price && totals && totals.cost !== null ? (
                data.price.transferred > 0 ? (
                  <Trans>
                    These tokens cost {format.money(totals.cost, data.price.currency)}, at{' '}
                    {format.money(data.price.per_million_tokens, data.price.currency)} per million tokens: what the{' '}
                    {data.price.purchases} purchases behind this balance cost, {data.price.transferred} of them made
                    with keys whose balance was transferred here.
                  </Trans>
                ) : scope ? (
                  <Trans>
                    These tokens cost {format.money(totals.cost, data.price.currency)}, at{' '}
                    {format.money(data.price.per_million_tokens, data.price.currency)} per million tokens: what the
                    organisation's {data.price.purchases} purchases cost.
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
  shared,
}: {
  balance: { current: number; scale: number; basis: 'largest_balance' | 'last_purchase' }
  days: number
  /** The organisation's shared balance rather than the key's. */
  shared: boolean
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
        {shared ? (
          <Trans>
            Shared balance {balanceText} tokens, against the largest it held in the last {days} days or its last
            purchase ({scaleText}).
          </Trans>
        ) : balance.basis === 'last_purchase' ? (
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
