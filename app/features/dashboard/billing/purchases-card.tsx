import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
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
        {purchases.isPending ? (
          <Skeleton className="h-24 w-full rounded-md" />
        ) : purchases.isError ? (
          <p role="alert" className="text-sm text-muted-foreground">
            <Trans>Purchases could not be loaded ({purchases.error.message}).</Trans>
          </p>
        ) : purchases.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            <Trans>No purchases yet.</Trans>
          </p>
        ) : (
          <Table data-testid="purchases">
            <TableHeader>
              <TableRow>
                <TableHead>
                  <Trans>Date</Trans>
                </TableHead>
                <TableHead numeric>
                  <Trans>Tokens</Trans>
                </TableHead>
                <TableHead numeric>
                  <Trans>Amount</Trans>
                </TableHead>
                <TableHead>
                  <Trans>Status</Trans>
                </TableHead>
                <TableHead>
                  <span className="sr-only">
                    <Trans>Receipt</Trans>
                  </span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {purchases.data.map((purchase) => (
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
                    <Badge variant={purchase.status === 'paid' ? 'success' : 'outline'}>
                      {status[purchase.status]}
                    </Badge>
                    {purchase.sandbox && <span className="ml-2 text-xs text-muted-foreground">{t`Sandbox`}</span>}
                  </TableCell>
                  <TableCell numeric>
                    {purchase.status === 'paid' && <ReceiptDialog apiKey={apiKey} purchase={purchase} />}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  )
}
