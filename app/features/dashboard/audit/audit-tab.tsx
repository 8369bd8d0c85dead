import { useLingui as useLinguiRuntime } from '@lingui/react'
import { ExportButtons } from '../export-buttons'
import { Trans, useLingui } from '@lingui/react/macro'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DataTable } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import { fetchAudit } from '../audit.functions'
import { useFormat } from '~/lib/format'
import { CardSkeleton, WithApiKey } from '../panels'
import { dashboardKeys } from '../queries'
import { auditActionLabels } from './action-labels'
import { AuditDetails } from './audit-details'
import { downloadAudit } from '../download-export'

const auditQuery = (apiKey: string) =>
  infiniteQueryOptions({
    queryKey: [...dashboardKeys.ofKey(apiKey), 'audit'] as const,
    queryFn: ({ pageParam, signal }) => fetchAudit({ data: { apiKey, num_records: '50', cursor: pageParam }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    staleTime: 0,
    retry: false,
  })

export function AuditTab() {
  return (
    <WithApiKey skeleton={<CardSkeleton className="h-[28rem] w-full rounded-xl" />}>
      {(apiKey) => <AuditScreen apiKey={apiKey} />}
    </WithApiKey>
  )
}

function AuditScreen({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  const format = useFormat()
  const query = useInfiniteQuery(auditQuery(apiKey))
  const events = query.data?.pages.flatMap((page) => page.events) ?? []
  const scope = query.data?.pages[0]?.scope

  return (
    <Card aria-labelledby="audit-title">
      <CardHeader>
        <CardTitle id="audit-title">
          <Trans>Audit log</Trans>
        </CardTitle>
        <CardDescription>
          {scope === 'account' ? (
            <Trans>Every change to your account and its keys: what, when, by whom and from which address.</Trans>
          ) : (
            <Trans>
              Every change to this key: what, when, by whom and from which address. Sign in to see your whole account.
            </Trans>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ExportButtons
          download={(format) => downloadAudit(apiKey, format)}
          disabled={events.length === 0}
          testId="export-audit"
        />
        <DataTable
          query={query}
          count={events.length}
          columns={[
            { label: <Trans>Time</Trans> },
            { label: <Trans>What</Trans> },
            { label: <Trans>Who</Trans> },
            { label: <Trans>Address</Trans> },
            { label: <Trans>Request id</Trans> },
          ]}
          failed={(error) => <Trans>The audit log could not be loaded ({error.message}).</Trans>}
          empty={<Trans>Nothing recorded yet.</Trans>}
          label={t`Audit log`}
          testId="audit"
          skeletonClassName="h-64"
        >
          {events.map((event) => (
            <TableRow key={event.id} data-action={event.action}>
              <TableCell className="whitespace-nowrap">{format.dateTime(event.created_at)}</TableCell>
              {/* Cells do not wrap by default: these do, so the table fits its box and no column is pushed out. */}
              <TableCell wrap className="min-w-56">
                <span className="block">{i18n._(auditActionLabels[event.action])}</span>
                <AuditDetails details={event.details} />
              </TableCell>
              <TableCell wrap className="min-w-24 text-xs break-all">
                {event.actor}
              </TableCell>
              <TableCell wrap className="font-mono text-xs break-all">
                {event.client_address ?? '–'}
              </TableCell>
              <TableCell wrap className="min-w-24 font-mono text-xs break-all">
                {event.request_id ?? '–'}
              </TableCell>
            </TableRow>
          ))}
        </DataTable>
      </CardContent>
    </Card>
  )
}
