import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DataTable } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import type { PurchaseItem } from '~/contracts/payments'
import { useFormat } from '~/lib/format'
import { purchasesQuery } from './queries'
import { ReceiptDialog } from './receipt-dialog'

function useStatusLabel(): Record<PurchaseItem['status'], string> {
  const { t } = useLingui()
  return { paid: t`Paid`, pending: t`Processing`, failed: t`Failed`, expired: t`Expired` }
}

/** The key's purchases (the ledger's purchase entries, with what a receipt needs), newest first. */
export function PurchasesCard({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const format = useFormat()
  const status = useStatusLabel()
  const purchases = useQuery(purchasesQuery(apiKey))
  return (
    <Card aria-labelledby="purchases-title">
      <CardHeader>
        <CardTitle id="purchases-title">
          <Trans>Purchase history</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Packs bought with this key, by checkout or by auto-recharge.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <DataTable
          query={purchases}
          count={purchases.data?.length ?? 0}
          columns={[
            { label: <Trans>Date</Trans> },
            { label: <Trans>Tokens</Trans>, numeric: true },
            { label: <Trans>Amount</Trans>, numeric: true },
            { label: <Trans>Status</Trans> },
            {
              label: (
                <span className="sr-only">
                  <Trans>Receipt</Trans>
                </span>
              ),
            },
          ]}
          failed={(error) => <Trans>Purchases could not be loaded ({error.message}).</Trans>}
          empty={<Trans>No purchases yet.</Trans>}
          testId="purchases"
          skeletonClassName="h-24"
        >
          {(purchases.data ?? []).map((purchase) => (
            <TableRow key={purchase.id} data-testid="purchase" data-status={purchase.status}>
              <TableCell>
                {format.dateTime(purchase.paid_at ?? purchase.created_at)}
                {purchase.kind === 'auto_recharge' && (
                  <span className="block text-xs text-muted-foreground">{t`Auto-recharge`}</span>
                )}
              </TableCell>
              <TableCell numeric>{format.tokens(purchase.tokens)}</TableCell>
              <TableCell numeric>{format.money(purchase.amount, purchase.currency)}</TableCell>
              <TableCell>
                <Badge variant={purchase.status === 'paid' ? 'success' : 'outline'}>{status[purchase.status]}</Badge>
                {purchase.sandbox && <span className="ml-2 text-xs text-muted-foreground">{t`Sandbox`}</span>}
              </TableCell>
              <TableCell numeric>
                {purchase.status === 'paid' && <ReceiptDialog apiKey={apiKey} purchase={purchase} />}
              </TableCell>
            </TableRow>
          ))}
        </DataTable>
      </CardContent>
    </Card>
  )
}
