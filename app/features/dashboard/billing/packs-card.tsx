import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { useFormat } from '../format'
import { productsQuery } from '../queries'

/**
 * The token packs on offer (spec §3: the free pack first). Names and prices are shown from the pack's
 * numbers in the visitor's language; the server's English product copy is for API clients.
 */
export function PacksCard() {
  const format = useFormat()
  const products = useQuery(productsQuery())
  return (
    <Card aria-labelledby="packs-title">
      <CardHeader>
        <CardTitle id="packs-title">
          <Trans>Token packs</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Every pack works with every API and stays on the key until it is used.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {products.isPending ? (
          <Skeleton className="h-36 w-full rounded-md" />
        ) : products.isError ? (
          <p role="alert" className="text-sm text-muted-foreground">
            <Trans>Token packs could not be loaded ({products.error.message}).</Trans>
          </p>
        ) : (
          <Table data-testid="packs">
            <TableHeader>
              <TableRow>
                <TableHead>
                  <Trans>Tokens</Trans>
                </TableHead>
                <TableHead numeric>
                  <Trans>Price</Trans>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {products.data.map((pack) => (
                <TableRow key={pack.price_id} data-price-id={pack.price_id}>
                  <TableCell>{format.tokens(pack.token_quantity)}</TableCell>
                  <TableCell numeric>
                    {pack.price === 0 ? <Trans>Free</Trans> : format.money(pack.price, pack.currency)}
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
