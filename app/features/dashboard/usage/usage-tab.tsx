import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { cn } from '~/lib/utils'
import { CardSkeleton, WithApiKey } from '../panels'
import { ConsumptionCard } from './consumption-card'
import { lastDays, usagePeriodDays, usagePeriods as periods } from './consumption-data'
import { SummaryCard } from './summary-card'
import { TransactionsCard } from './transactions-card'

export function UsageTab() {
  return (
    <WithApiKey
      skeleton={
        <div className="flex flex-col gap-6">
          <CardSkeleton className="h-[30rem] w-full rounded-xl" />
          <CardSkeleton className="h-96 w-full rounded-xl" />
        </div>
      }
    >
      {(apiKey) => <UsageScreen apiKey={apiKey} />}
    </WithApiKey>
  )
}

function UsageScreen({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const [days, setDays] = useState<(typeof periods)[number]>(usagePeriodDays)
  const range = lastDays(days)
  return (
    <div className="flex flex-col gap-6">
      <div role="group" aria-label={t`Period`} className="flex w-fit max-w-full flex-wrap gap-1 rounded-md border p-1">
        {periods.map((period) => (
          <button
            key={period}
            type="button"
            aria-pressed={days === period}
            onClick={() => setDays(period)}
            className={cn(
              'rounded px-3 py-1 text-sm hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
              days === period && 'bg-accent font-medium',
            )}
          >
            <Trans>{period} days</Trans>
          </button>
        ))}
      </div>
      <SummaryCard apiKey={apiKey} range={range} days={days} />
      <ConsumptionCard apiKey={apiKey} range={range} days={days} />
      <TransactionsCard apiKey={apiKey} />
    </div>
  )
}
