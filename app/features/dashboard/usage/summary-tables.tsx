import { Trans, useLingui } from '@lingui/react/macro'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import type { UsageSummary } from '~/contracts/usage-summary'
import { useFormat } from '~/lib/format'

type Counts = UsageSummary['totals']

function CountHeads({ priced }: { priced: boolean }) {
  return (
    <>
      <TableHead numeric>
        <Trans>Requests</Trans>
      </TableHead>
      <TableHead numeric>
        <Trans>Refused</Trans>
      </TableHead>
      {/* 5xx apart from refusals, in the request log's word for them. */}
      <TableHead numeric>
        <Trans>Failed</Trans>
      </TableHead>
      <TableHead numeric>
        <Trans>Tokens</Trans>
      </TableHead>
      {priced && (
        <TableHead numeric>
          <Trans>Cost</Trans>
        </TableHead>
      )}
    </>
  )
}

function CountCells({ row, currency }: { row: Counts; currency: string | null }) {
  const format = useFormat()
  return (
    <>
      <TableCell numeric>{format.tokens(row.requests)}</TableCell>
      <TableCell numeric>{format.tokens(row.refused)}</TableCell>
      <TableCell numeric>{format.tokens(row.failed)}</TableCell>
      <TableCell numeric>{format.tokens(row.tokens)}</TableCell>
      {currency && <TableCell numeric>{row.cost === null ? '–' : format.money(row.cost, currency)}</TableCell>}
    </>
  )
}

export function SummaryTables({ summary, showKeys }: { summary: UsageSummary; showKeys: boolean }) {
  const { t } = useLingui()
  const format = useFormat()
  const currency = summary.price?.currency ?? null
  const priced = currency !== null
  return (
    <div className="flex flex-col gap-6">
      <Table label={t`Per product and model`} data-testid="summary-by-model">
        <TableHeader>
          <TableRow>
            <TableHead>
              <Trans>Product and model</Trans>
            </TableHead>
            <CountHeads priced={priced} />
          </TableRow>
        </TableHeader>
        <TableBody>
          {summary.by_model.map((row) => (
            <TableRow key={`${row.product} ${row.model}`}>
              <TableCell>
                <span className="block whitespace-nowrap">{row.product}</span>
                <span className="block text-xs whitespace-nowrap text-muted-foreground">{row.model ?? '–'}</span>
              </TableCell>
              <CountCells row={row} currency={currency} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {showKeys && (
        <Table label={t`Per key`} data-testid="summary-by-key">
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>Key</Trans>
              </TableHead>
              <CountHeads priced={priced} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {summary.by_key.map((row) => (
              <TableRow key={row.key_id}>
                <TableCell className="whitespace-nowrap">{row.label}</TableCell>
                <CountCells row={row} currency={currency} />
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {summary.by_project.some((row) => row.project_id !== null) && (
        <Table label={t`Per project`} data-testid="summary-by-project">
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>Project</Trans>
              </TableHead>
              <CountHeads priced={priced} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {summary.by_project.map((row) => (
              <TableRow key={row.project_id ?? ''}>
                <TableCell className="whitespace-nowrap">{row.name ?? t`No project`}</TableCell>
                <CountCells row={row} currency={currency} />
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {summary.by_tag.length > 0 && (
        <Table label={t`Per request tag`} data-testid="summary-by-tag">
          <TableHeader>
            <TableRow>
              <TableHead>
                <Trans>X-Request-Tag</Trans>
              </TableHead>
              <CountHeads priced={priced} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {summary.by_tag.map((row) => (
              <TableRow key={row.tag}>
                <TableCell className="font-mono text-xs break-all">{row.tag}</TableCell>
                <CountCells row={row} currency={currency} />
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Table label={t`Per day`} data-testid="summary-by-day">
        <TableHeader>
          <TableRow>
            <TableHead>
              <Trans>Day (UTC)</Trans>
            </TableHead>
            <CountHeads priced={priced} />
          </TableRow>
        </TableHeader>
        <TableBody>
          {summary.by_day.map((row) => (
            <TableRow key={row.date}>
              <TableCell className="whitespace-nowrap">{format.day(row.date)}</TableCell>
              <CountCells row={row} currency={currency} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  )
}
