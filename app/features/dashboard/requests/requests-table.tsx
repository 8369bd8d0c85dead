import { Trans, useLingui } from '@lingui/react/macro'
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
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
export function RequestsTable({ rows, showKey }: { rows: RequestLogRow[]; showKey: boolean }) {
  const { t } = useLingui()
  const format = useFormat()
  const statusText = useStatusText()
  return (
    <div
      role="region"
      aria-label={t`Requests`}
      tabIndex={0}
      className="w-full overflow-x-auto rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <table className="w-full text-sm" data-testid="requests">
        <TableHeader>
          <TableRow>
            <TableHead>
              <Trans>Time</Trans>
            </TableHead>
            {showKey && (
              <TableHead>
                <Trans>Key</Trans>
              </TableHead>
            )}
            <TableHead>
              <Trans>Product and model</Trans>
            </TableHead>
            <TableHead numeric>
              <Trans>Input tokens</Trans>
            </TableHead>
            <TableHead numeric>
              <Trans>Output tokens</Trans>
            </TableHead>
            <TableHead numeric>
              <Trans>Latency</Trans>
            </TableHead>
            <TableHead>
              <Trans>Status</Trans>
            </TableHead>
            <TableHead>
              <Trans>Request id</Trans>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
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
              <TableCell className="font-mono text-xs break-all">{row.request_id}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </table>
    </div>
  )
}
