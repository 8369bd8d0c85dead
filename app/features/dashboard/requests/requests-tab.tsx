import { Trans } from '@lingui/react/macro'
import { ExportButtons } from '../export-buttons'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { CardSkeleton, WithApiKey } from '../panels'
import { downloadRequestLog } from '../download-export'
import { FiltersForm, filtersOf, noFilters, type FilterChoice } from './filters-form'
import { requestLogQuery } from './queries'
import { RequestsTable } from './requests-table'

export function RequestsTab() {
  return (
    <WithApiKey skeleton={<CardSkeleton className="h-[32rem] w-full rounded-xl" />}>
      {(apiKey) => <RequestsScreen apiKey={apiKey} />}
    </WithApiKey>
  )
}

function RequestsScreen({ apiKey }: { apiKey: string }) {
  const [choice, setChoice] = useState<FilterChoice>(noFilters)
  // The time range is counted back from when the filters were applied, so the query key stays put.
  const [filters, setFilters] = useState(() => filtersOf(noFilters))
  const query = useInfiniteQuery(requestLogQuery(apiKey, filters))
  const first = query.data?.pages[0]
  const rows = query.data?.pages.flatMap((page) => page.requests) ?? []
  const keys = first?.keys ?? []

  return (
    <Card aria-labelledby="requests-title">
      <CardHeader>
        <CardTitle id="requests-title">
          <Trans>Requests</Trans>
        </CardTitle>
        <CardDescription>
          {!first ? (
            <Trans>
              Every metered API request, answered or refused. What a request sent or received is never kept.
            </Trans>
          ) : keys.length > 1 ? (
            <Trans>
              Every metered API request of the account's keys, answered or refused, kept {first.retention_days} days.
              What a request sent or received is never kept.
            </Trans>
          ) : (
            <Trans>
              Every metered API request of this key, answered or refused, kept {first.retention_days} days. What a
              request sent or received is never kept.
            </Trans>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FiltersForm
          keys={keys}
          applied={choice}
          onApply={(next) => {
            setChoice(next)
            setFilters(filtersOf(next))
          }}
        />
        <ExportButtons
          download={(format) => downloadRequestLog(apiKey, filters, format)}
          disabled={rows.length === 0}
          testId="export-requests"
        />
        <RequestsTable query={query} rows={rows} showKey={keys.length > 1} />
      </CardContent>
    </Card>
  )
}
