import { Trans, useLingui } from '@lingui/react/macro'
import type * as React from 'react'
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import type { UsageSummary } from '~/contracts/usage-summary'
import { useFormat } from '~/lib/format'

type Counts = UsageSummary['totals']

/** A table that scrolls sideways on a phone; the region takes focus so a keyboard can scroll it. */
function Scroll({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="w-full overflow-x-auto rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <table className="w-full text-sm" data-testid={testId}>
        {children}
      </table>
    </div>
  )
}

function CountHeads({ priced }: { priced: boolean }) {
  return (
    <>
      <TableHead numeric>
        <Trans>Requests</Trans>
      </TableHead>
      <TableHead numeric>
        <Trans>Refused</Trans>
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
      <Scroll label={t`Per product and model`} testId="summary-by-model">
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
      </Scroll>
      {showKeys && (
        <Scroll label={t`Per key`} testId="summary-by-key">
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
        </Scroll>
      )}
      <Scroll label={t`Per day`} testId="summary-by-day">
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
      </Scroll>
    </div>
  )
}
