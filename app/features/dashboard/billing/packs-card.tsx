import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery } from '@tanstack/react-query'
import { ShoppingCartIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DataTable } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import { useLocale } from '~/lib/use-locale'
import { premiumPriceId } from '#config'
import { useFormat } from '~/lib/format'
import { productsQuery } from '../queries'
import { notify } from '../notify'
import { usePaymentErrorMessage } from '~/lib/payment-error'
import { checkoutMutation } from './queries'
import { checkoutReturnUrls } from './return-urls'

type BuyablePrice = 'price_tokens_1b' | 'price_tokens_11b'

/**
 * The token packs on offer (spec §3: the free pack first), each priced pack with its buy button. Names and
 * prices are shown from the pack's numbers in the visitor's language and number format.
 */
export function PacksCard({ apiKey }: { apiKey: string | null }) {
  const { t } = useLingui()
  const format = useFormat()
  const locale = useLocale()
  const products = useQuery(productsQuery())
  const paymentError = usePaymentErrorMessage()
  const checkout = useMutation({ ...checkoutMutation(), onError: (error) => notify.error(paymentError(error)) })
  const buy = (priceId: BuyablePrice) =>
    apiKey && checkout.mutate({ apiKey, price_id: priceId, ...checkoutReturnUrls(locale, 'billing') })
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
        <DataTable
          query={products}
          count={products.data?.length ?? 0}
          columns={[
            { label: <Trans>Tokens</Trans> },
            { label: <Trans>Price</Trans>, numeric: true },
            {
              label: (
                <span className="sr-only">
                  <Trans>Buy</Trans>
                </span>
              ),
            },
          ]}
          failed={(error) => <Trans>Token packs could not be loaded ({error.message}).</Trans>}
          testId="packs"
          skeletonClassName="h-36"
        >
          {(products.data ?? []).map((pack) => (
            <TableRow key={pack.price_id} data-price-id={pack.price_id}>
              {/* The note goes under the figure: beside it, it pushed the Buy button off a phone's screen. */}
              <TableCell>
                {format.tokens(pack.token_quantity)}
                {pack.price_id === premiumPriceId && (
                  <span className="block text-xs text-muted-foreground">
                    <Trans>premium rate limits</Trans>
                  </span>
                )}
              </TableCell>
              <TableCell numeric>
                {pack.price === 0 ? <Trans>Free</Trans> : format.money(pack.price, pack.currency)}
              </TableCell>
              <TableCell numeric>
                {pack.price > 0 && (
                  <Button
                    size="sm"
                    disabled={!apiKey || checkout.isPending}
                    title={apiKey ? undefined : t`Get or add a key first`}
                    onClick={() => buy(pack.price_id as BuyablePrice)}
                    data-testid="buy-pack"
                  >
                    <ShoppingCartIcon aria-hidden="true" />
                    <Trans>Buy</Trans>
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </DataTable>
      </CardContent>
    </Card>
  )
}
