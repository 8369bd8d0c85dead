import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery } from '@tanstack/react-query'
import { DownloadIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { DataTable } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import type { Transaction } from '~/contracts/billing'
import { useFormat } from '~/lib/format'
import { useDateTime } from '../use-date-time'
import { toastError, transactionsQuery } from '../queries'
import { exportTransactionsCsv } from './export-csv'
import { transactionReasonLabels } from './transaction-reasons'
import { transactionTypeLabels } from './transaction-types'
import { notify } from '~/features/dashboard/notify'

export function TransactionsCard({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  const format = useFormat()
  const dateTime = useDateTime()
  const query = useInfiniteQuery(transactionsQuery(apiKey))
  const [exporting, setExporting] = useState(false)
  const transactions = query.data?.pages.flatMap((page) => page.transactions) ?? []

  const exportCsv = async () => {
    setExporting(true)
    try {
      const count = await exportTransactionsCsv(apiKey)
      notify.success(t`Exported ${count} transactions`)
    } catch (error) {
      toastError(error)
    } finally {
      setExporting(false)
    }
  }

  return (
    <Card aria-labelledby="transactions-title">
      <CardHeader row>
        <CardTitle id="transactions-title">
          <Trans>Transactions</Trans>
        </CardTitle>
        <Button
          variant="outline"
          size="sm"
          onClick={exportCsv}
          disabled={exporting || transactions.length === 0}
          data-testid="export-csv"
        >
          <DownloadIcon aria-hidden="true" />
          {exporting ? <Trans>Exporting…</Trans> : <Trans>Export CSV</Trans>}
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <DataTable
          query={query}
          count={transactions.length}
          columns={[
            { label: <Trans>Date</Trans> },
            { label: <Trans>Type</Trans> },
            { label: <Trans>Product</Trans> },
            { label: <Trans>Tokens</Trans>, numeric: true },
            { label: <Trans>Balance after</Trans>, numeric: true },
          ]}
          failed={(error) => <Trans>Transactions could not be loaded ({error.message}).</Trans>}
          empty={<Trans>No transactions yet.</Trans>}
          testId="transactions"
          moreTestId="load-more"
          skeletonClassName="h-72"
        >
          {transactions.map((tx) => (
            <TableRow key={tx.id} data-type={tx.type} data-product={tx.product ?? undefined}>
              <TableCell>{dateTime(tx.created_at)}</TableCell>
              {/* The note wraps in its own column (a cell does not by default, and it ran over the next ones),
                  so the table narrows to its box instead of cutting its last column. */}
              <TableCell wrap>
                {transactionTypeLabels[tx.type] ? i18n._(transactionTypeLabels[tx.type]) : tx.type}
                {tx.request && tx.reason !== 'failed_request' ? (
                  <span
                    className="block min-w-40 max-w-72 text-xs text-muted-foreground"
                    data-testid="transaction-reason"
                  >
                    <RequestNote request={tx.request} />
                  </span>
                ) : (
                  tx.reason && (
                    <span
                      className="block min-w-40 max-w-72 text-xs text-muted-foreground"
                      data-testid="transaction-reason"
                    >
                      {i18n._(transactionReasonLabels[tx.reason])}
                    </span>
                  )
                )}
              </TableCell>
              <TableCell>
                <span className="block">{tx.product ?? '—'}</span>
                {tx.model && <span className="block text-xs text-muted-foreground">{tx.model}</span>}
              </TableCell>
              <TableCell numeric className={tx.amount < 0 ? 'text-foreground' : 'text-success'}>
                {tx.amount > 0 ? '+' : ''}
                {format.tokens(tx.amount)}
              </TableCell>
              <TableCell numeric>{format.tokens(tx.balance_after)}</TableCell>
            </TableRow>
          ))}
        </DataTable>
      </CardContent>
    </Card>
  )
}

/** A streamed request's row: what it reserved as it ran and what it gave back, netted in its tokens. */
function RequestNote({ request }: { request: NonNullable<Transaction['request']> }) {
  const format = useFormat()
  const reserved = format.tokens(request.reserved)
  const givenBack = format.tokens(request.given_back)
  return request.given_back > 0 ? (
    <Trans>
      Reserved {reserved} tokens as it ran and gave back the {givenBack} it did not use.
    </Trans>
  ) : (
    <Trans>Reserved {reserved} tokens as it ran, and used them all.</Trans>
  )
}
