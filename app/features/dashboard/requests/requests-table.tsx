import { Trans, useLingui } from '@lingui/react/macro'
import { DataTable, type TableQuery } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import type { RequestLogRow } from '~/contracts/request-log'
import { useFormat } from '~/lib/format'

/** How a status reads: answered, or the refusal's reason in words. */
function useStatusText() {
  const { t } = useLingui()
  return (status: number) => {
    if (status < 300) return t`Answered`
    if (status === 402) return t`Balance too low`
    if (status === 409) return t`Request id already used`
    if (status === 422) return t`Invalid input`
    if (status === 429) return t`Rate limited`
    if (status >= 500) return t`Failed`
    return t`Refused`
  }
}

/** The log as a table that scrolls sideways on a phone; the region takes focus so a keyboard can scroll it. */
export function RequestsTable({
  query,
  rows,
  showKey,
}: {
  query: TableQuery
  rows: RequestLogRow[]
  showKey: boolean
}) {
  const { t } = useLingui()
  const format = useFormat()
  const statusText = useStatusText()
  return (
    <DataTable
      query={query}
      count={rows.length}
      columns={[
        { label: <Trans>Time</Trans> },
        showKey && { label: <Trans>Key</Trans> },
        { label: <Trans>Product and model</Trans> },
        { label: <Trans>Input tokens</Trans>, numeric: true },
        { label: <Trans>Output tokens</Trans>, numeric: true },
        { label: <Trans>Latency</Trans>, numeric: true },
        { label: <Trans>Status</Trans> },
        { label: <Trans>Request id</Trans> },
      ]}
      failed={(error) => <Trans>Requests could not be loaded ({error.message}).</Trans>}
      empty={<Trans>No requests match. Calls made with this key show up here.</Trans>}
      emptyTestId="requests-empty"
      label={t`Requests`}
      testId="requests"
      moreTestId="requests-more"
      skeletonClassName="h-72"
    >
      {rows.map((row) => (
        <TableRow key={row.id} data-status={row.status}>
          <TableCell className="whitespace-nowrap">{format.dateTime(row.created_at)}</TableCell>
          {showKey && <TableCell className="whitespace-nowrap">{row.key_label}</TableCell>}
          <TableCell>
            <span className="block whitespace-nowrap">{row.product}</span>
            <span className="block text-xs whitespace-nowrap text-muted-foreground">
              {row.model ?? '–'}
              {row.engine && ` · ${row.engine}`}
            </span>
          </TableCell>
          <TableCell numeric>{format.tokens(row.input_tokens)}</TableCell>
          <TableCell numeric>{format.tokens(row.output_tokens)}</TableCell>
          <TableCell numeric className="whitespace-nowrap">
            <Trans>{format.tokens(row.latency_ms)} ms</Trans>
          </TableCell>
          <TableCell className="whitespace-nowrap">
            <span className="font-mono">{row.status}</span> {statusText(row.status)}
          </TableCell>
          <TableCell className="font-mono text-xs break-all">
            {row.request_id}
            {row.tag && (
              <span className="mt-1 block font-sans text-muted-foreground" data-testid="request-tag">
                <Trans>Tag: {row.tag}</Trans>
              </span>
            )}
          </TableCell>
        </TableRow>
      ))}
    </DataTable>
  )
}
